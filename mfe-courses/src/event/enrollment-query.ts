import { ENROLLMENT_PAGE_SIZE, ENROLLMENT_FILTER_COLUMNS, ENROLLMENT_SORT_FIELDS } from '@studio/contracts';

export type EnrollmentSortField = (typeof ENROLLMENT_SORT_FIELDS)[number];
export type EnrollmentFilterColumn = (typeof ENROLLMENT_FILTER_COLUMNS)[number];

export interface EnrollmentQuery {
  page: number;
  limit: number;
  search: string;
  sortField: EnrollmentSortField;
  sortOrder: 'asc' | 'desc';
  filter: Partial<Record<EnrollmentFilterColumn, string>>;
}

export const INITIAL_ENROLLMENT_QUERY: EnrollmentQuery = {
  page: 1,
  limit: ENROLLMENT_PAGE_SIZE,
  search: '',
  sortField: 'created_at',
  sortOrder: 'asc',
  filter: {},
};

/** `page&limit&search&sortField&sortOrder&filter[column]=value`, leaving out what is empty. */
export function enrollmentQueryString(query: EnrollmentQuery): string {
  const params = new URLSearchParams();
  params.set('page', String(query.page));
  params.set('limit', String(query.limit));
  if (query.search.trim()) params.set('search', query.search.trim());
  params.set('sortField', query.sortField);
  params.set('sortOrder', query.sortOrder);
  for (const column of ENROLLMENT_FILTER_COLUMNS) {
    const value = query.filter[column]?.trim();
    if (value) params.set(`filter[${column}]`, value);
  }
  return params.toString();
}
