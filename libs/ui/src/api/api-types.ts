import type { components } from '@studio/contracts/src/generated/api';

type Schemas = components['schemas'];

/*
 * Answers of the API, aliased from the generated OpenAPI types (libs/contracts/src/generated). No
 * answer shape is written by hand here: a call the API does not serve yet is typed in
 * known-missing.ts, and only there.
 */
export type Session = Schemas['SessionDto_Output'];
export type SessionUser = Schemas['SuperAdminUserDto_Output'];
export type SessionOrganization = Session['organization'];
export type UserRole = SessionUser['role'];
export type LoginResponse = Schemas['LoginResponseDto_Output'];
export type OrganizationListResponse = Schemas['OrganizationListDto_Output'];
export type OrganizationSummary = OrganizationListResponse['organizations'][number];
export type ApiErrorResponse = Schemas['ErrorBodyDto'];
export type StudentListResponse = Schemas['StudentListDto_Output'];
export type StudentDetail = Schemas['StudentDetailDto_Output'];
/** GET /api/admin/sync/providers/{provider} (and Retry's answer): the provider as its drawer reads it. */
export type SyncProviderAnswer = Schemas['SyncProviderOutDto_Output'];
export type SyncProviderRead = SyncProviderAnswer;
