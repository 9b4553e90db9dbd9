import {
  checkoutQuoteResultSchema,
  checkoutQuoteSchema,
  checkoutResultSchema,
  checkoutSchema,
  pointsBalanceSchema,
  pointsCodeRequestSchema,
  pointsCodeSentSchema,
  pointsVerifySchema,
  publicCheckoutSessionSchema,
  publicCourseSchema,
  publicOrderSchema,
  publicProductSchema,
  publicStoreSchema,
  storeWaiverRequestSchema,
  storeWaiverStartSchema,
  storeWaiverStatusSchema,
  waiverTokenSchema,
} from '@studio/contracts';
import { z } from 'zod';
import { createZodDto } from '../../common/zod-dto';

export class PublicStoreDto extends createZodDto(publicStoreSchema) {}
export class PublicCourseDto extends createZodDto(publicCourseSchema) {}
export class PublicProductDto extends createZodDto(publicProductSchema) {}
export class PublicCheckoutSessionDto extends createZodDto(publicCheckoutSessionSchema) {}
export class CheckoutQuoteDto extends createZodDto(checkoutQuoteSchema) {}
export class CheckoutQuoteResultDto extends createZodDto(checkoutQuoteResultSchema) {}
export class CheckoutDto extends createZodDto(checkoutSchema) {}
export class CheckoutResultDto extends createZodDto(checkoutResultSchema) {}
export class PointsCodeRequestDto extends createZodDto(pointsCodeRequestSchema) {}
export class PointsCodeSentDto extends createZodDto(pointsCodeSentSchema) {}
export class PointsVerifyDto extends createZodDto(pointsVerifySchema) {}
export class PointsBalanceDto extends createZodDto(pointsBalanceSchema) {}
export class PublicOrderDto extends createZodDto(publicOrderSchema) {}
/** The order's secret token, from its confirmation link. */
export class OrderTokenQueryDto extends createZodDto(
  z.strictObject({ token: z.string().regex(/^[A-Za-z0-9_-]{43}$/, 'Order not found') }),
) {}
export class StoreWaiverRequestDto extends createZodDto(storeWaiverRequestSchema) {}
export class StoreWaiverStartDto extends createZodDto(storeWaiverStartSchema) {}
export class StoreWaiverStatusDto extends createZodDto(storeWaiverStatusSchema) {}
/** The waiver signing's secret token, as POST waiver answered it. */
export class WaiverTokenQueryDto extends createZodDto(z.strictObject({ token: waiverTokenSchema })) {}
