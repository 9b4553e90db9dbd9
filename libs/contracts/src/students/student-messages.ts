/** The students' messages (zod-free: the store's pages use them without loading zod). */
export const STUDENT_MESSAGES = {
  firstNameRequired: 'A first name is required.',
  lastNameRequired: 'A last name is required.',
  nameTooLong: 'Names are at most 100 characters.',
  email: 'Enter a valid email address',
  emailTaken: 'A student with this email already exists.',
  created: 'Student added',
  createFailed: 'Could not add the student. Please try again.',
  page: 'Page must be a whole number from 1.',
  limit: 'Limit must be between 1 and 100.',
  search: 'Search is at most 200 characters.',
  cursor: 'This page link is no longer valid; start again from the first page.',
} as const;
