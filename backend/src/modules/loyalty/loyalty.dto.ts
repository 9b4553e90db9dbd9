import { loyaltyProgramSchema, loyaltyProgramUpdateSchema } from '@studio/contracts';
import { createZodDto } from '../../common/zod-dto';

export class LoyaltyProgramDto extends createZodDto(loyaltyProgramSchema) {}
export class LoyaltyProgramUpdateDto extends createZodDto(loyaltyProgramUpdateSchema) {}
