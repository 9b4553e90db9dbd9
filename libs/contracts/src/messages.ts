/**
 * The spec's user-facing messages, word for word. Both the API (error bodies) and the browser
 * (form errors, toasts) read them from here so the two never say different things.
 */
export const MESSAGES = {
  api: {
    callFailed: 'API call failed',
    sessionFailed: 'Failed to get session',
  },
  auth: {
    invalidCredentials: 'Invalid email or password',
    tooManyAttempts: 'Too many sign-in attempts. Please try again later.',
    unauthorized: 'You must be signed in',
    forbidden: 'You do not have permission to do this',
    emailRequired: 'An email is required',
    emailInvalid: 'Enter a valid email address',
    passwordRequired: 'A password is required',
  },
  common: {
    notFound: 'Not found',
    validationFailed: 'Validation failed',
    malformedJson: 'The request body is not valid JSON',
    internal: 'Something went wrong on our side',
  },
  students: {
    emailTaken: 'A student with this email already exists.',
  },
  superAdmin: {
    organizationRequired: 'An organization must be selected.',
    switched: 'Organization switched',
    switchFailed: 'Failed to switch organization',
  },
} as const;
