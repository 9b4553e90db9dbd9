import { slotsOutSchema, slotsQuerySchema } from '@studio/contracts';
import { createZodDto } from '../../common/zod-dto';

export class SlotsQueryDto extends createZodDto(slotsQuerySchema) {}
export class SlotsOutDto extends createZodDto(slotsOutSchema) {}
