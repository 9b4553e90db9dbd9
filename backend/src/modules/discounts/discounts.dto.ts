import { DISCOUNT_APPLY_LOGIC, DISCOUNT_STATUSES, DISCOUNT_TYPES, discountListQuerySchema, discountPayloadSchema } from '@studio/contracts';
import { z } from 'zod';
import { createZodDto } from '../../common/zod-dto';

export class DiscountPayloadDto extends createZodDto(discountPayloadSchema) {}
export class DiscountListQueryDto extends createZodDto(discountListQuerySchema) {}

const discountOut = z.object({
  id: z.uuid(),
  label: z.string(),
  code: z.string(),
  type: z.enum(DISCOUNT_TYPES),
  value: z.number().int().describe('cents for a dollar discount; a whole percent otherwise'),
  activity_id: z.uuid().nullable().describe('the course the code is limited to'),
  apply_logic: z.enum(DISCOUNT_APPLY_LOGIC),
  start_date: z.string().nullable().describe('ISO instant; null: no start'),
  expiration_date: z.string().nullable().describe('ISO instant, inclusive; null: no end'),
  times_used: z.number().int().describe('paid orders that used the code'),
  status: z.enum(DISCOUNT_STATUSES).describe('from now: scheduled before the start, expired after the end, else active'),
  created_at: z.string(),
  updated_at: z.string(),
});
export class DiscountOutDto extends createZodDto(discountOut) {}
export class DiscountListDto extends createZodDto(
  z.object({
    promo_codes: z.array(discountOut),
    totalCount: z.number().int(),
    currentPage: z.number().int(),
    itemsPerPage: z.number().int(),
  }),
) {}
