/**
 * Discount codes (spec 000 §5 rules, §8 messages). The toasts and the form error are the spec's,
 * word for word ("Failed to update the course." is the spec's own text for the discount form);
 * the field messages are ours, since the spec names the rules but not their wording.
 */
export const DISCOUNT_MESSAGES = {
  labelRequired: 'A label is required',
  labelTooLong: 'A label is at most 200 characters',
  codeRequired: 'A code is required',
  codeTooShort: 'Code must be at least 3 characters',
  codeTooLong: 'Code must be at most 50 characters',
  codeTaken: 'A discount with this code already exists. Codes are not case-sensitive.',
  typeInvalid: 'Choose a dollar amount or a percentage',
  valueRequired: 'A value is required',
  valueInvalid: 'Enter a value greater than 0',
  dollarInvalid: 'Amount must be greater than 0 with at most 2 decimals',
  percentageInvalid: 'Percentage must be a whole number from 1 to 100',
  applyLogicInvalid: 'Apply the discount once per order or to each item',
  startDateRequired: 'A start date is required',
  endDateRequired: 'An end date is required',
  dateInvalid: 'Not a date: pick a day (YYYY-MM-DD)',
  endBeforeStart: 'The end date must be after the start date',
  timeInvalid: 'Choose an hour from 1:00 AM to 11:00 PM',
  courseRequired: 'A course is required when the discount is limited to a course',
  courseNotFound: 'Course not found',
  notFound: 'Discount not found',
  saved: 'Discount added',
  saveFailed: 'Error adding discount',
  formError: 'Failed to update the course. Please try again later.',
  page: 'Page must be a whole number from 1.',
  limit: 'Limit must be between 1 and 100.',
  search: 'Search is at most 200 characters.',
} as const;
