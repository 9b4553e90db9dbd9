import { publicCourseSchema, publicProductSchema, publicStoreSchema } from '@studio/contracts';
import { createZodDto } from '../../common/zod-dto';

export class PublicStoreDto extends createZodDto(publicStoreSchema) {}
export class PublicCourseDto extends createZodDto(publicCourseSchema) {}
export class PublicProductDto extends createZodDto(publicProductSchema) {}
