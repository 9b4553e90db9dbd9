import type { components } from '@studio/contracts';

type Schemas = components['schemas'];
export type ScheduleCourse = Schemas['CourseOutDto_Output'];
export type LocationItem = Schemas['LocationListDto_Output']['locations'][number];
export type InstructorItem = Schemas['InstructorListDto_Output']['instructors'][number];
