/**
 * Answers of the API, written by hand from the backend contract until libs/contracts' generated
 * OpenAPI types hold real paths; then these become aliases of `components['schemas']`.
 */
export type UserRole = 'owner' | 'staff' | 'super_admin';

export interface SessionUser {
  user_id: string;
  email: string;
  first_name: string;
  last_name: string;
  role: UserRole;
  organization_id: string;
}

export interface SessionOrganization {
  organization_id: string;
  name: string;
  timezone: string;
  listed_course: boolean;
  public_url?: string | null;
}

export interface Session {
  user: SessionUser;
  organization: SessionOrganization;
}

export interface LoginResponse {
  token: string;
  user: SessionUser;
}

export interface OrganizationSummary {
  organization_id: string;
  name: string;
  timezone: string;
}

export interface OrganizationListResponse {
  organizations: OrganizationSummary[];
}

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
