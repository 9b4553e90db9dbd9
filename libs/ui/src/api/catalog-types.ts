import type { components } from '@studio/contracts/src/generated/api';

type Schemas = components['schemas'];

/* Catalog answers, aliased from the generated OpenAPI types (libs/contracts/src/generated). */
export type CourseListResponse = Schemas['CourseListDto_Output'];
export type CourseSummary = CourseListResponse['activities'][number];
export type CourseSessionsResponse = Schemas['SessionListDto_Output'];
export type CourseSession = CourseSessionsResponse['sessions'][number];
export type SessionBadge = CourseSession['badge'];
export type CreatedCourse = Schemas['CreatedCourseDto_Output'];
export type LocationListResponse = Schemas['LocationListDto_Output'];
export type LocationItem = LocationListResponse['locations'][number];
export type InstructorListResponse = Schemas['InstructorListDto_Output'];
export type InstructorItem = InstructorListResponse['instructors'][number];
export type WaiverListResponse = Schemas['WaiverListDto_Output'];
export type WaiverItem = WaiverListResponse['waivers'][number];

export type CourseDetail = Schemas['CourseOutDto_Output'];
export type CourseFormFieldRead = NonNullable<CourseDetail['RequiredForm']>['fields'][number];
