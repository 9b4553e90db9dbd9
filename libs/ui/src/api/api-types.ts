import type { components } from '@studio/contracts/src/generated/api';

type Schemas = components['schemas'];

/*
 * Identity and organization answers come from the OpenAPI document (libs/contracts generated
 * types). The catalog, student and promo-code shapes below are written by hand from the specs
 * until the server has those endpoints; then they become aliases of Schemas too.
 */
export type Session = Schemas['SessionDto_Output'];
export type SessionUser = Schemas['SuperAdminUserDto_Output'];
export type SessionOrganization = Session['organization'];
export type UserRole = SessionUser['role'];
export type LoginResponse = Schemas['LoginResponseDto_Output'];
export type OrganizationListResponse = Schemas['OrganizationListDto_Output'];
export type OrganizationSummary = OrganizationListResponse['organizations'][number];
export type ApiErrorResponse = Schemas['ErrorBodyDto'];

export interface ActivityListItem {
  activity_id: string;
  name: string;
}

export interface SessionLocation {
  address?: string;
  timezone?: { timeZoneId?: string | null } | null;
}

export interface ActivitySession {
  event_id: string;
  /** ISO 8601 UTC start instant. */
  start: string;
  internal_short_description?: string | null;
  Location?: SessionLocation | null;
}

export interface ActivitySessionsResponse {
  sessions: ActivitySession[];
}

export interface ProductListItem {
  product_id: string;
  name: string;
}

export interface PromoCode {
  id: string;
  label: string;
  code: string;
  type: 'dollar' | 'percentage';
  /** Cents for a dollar discount, whole percent otherwise. */
  value: number;
  activity_id: string | null;
  apply_logic: 'once' | 'each';
  start_date: string | null;
  expiration_date: string | null;
}

export interface StudentOrderRow {
  order_id: string;
  order_number: string | number;
  created_at: string;
  total: number;
  image?: string | null;
  subDescription?: string | null;
}

export interface WaiverSubmission {
  submission_id: string;
  status: string;
  completed_at?: string | null;
  created_at: string;
  submission_url?: string | null;
  sign_url?: string | null;
  DocusealTemplate?: { name: string } | null;
}

export interface StudentDetail {
  student_id: string;
  first_name: string;
  last_name: string;
  email: string;
  user_id?: string | null;
  created_at: string;
  User?: { first_name?: string; last_name?: string; phone?: string | null } | null;
  LoyaltyBalance?: { balance: number }[];
  Organization?: { timezone?: string; LoyaltyProgram?: { status: string }[] } | null;
  Submission?: WaiverSubmission[];
  new_orders?: StudentOrderRow[];
}

// Where the server already has the endpoint, its generated answer must fit the shape the drawers read.
type Fits<Generated, HandWritten> = Generated extends HandWritten ? true : never;
export type _CourseListFits = Fits<Schemas['CourseListDto_Output'], { activities: ActivityListItem[] }>;
export type _SessionListFits = Fits<Schemas['SessionListDto_Output'], ActivitySessionsResponse>;
