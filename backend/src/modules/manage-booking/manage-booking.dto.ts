import {
  adminCancelSchema,
  adminRescheduleSchema,
  bookingTermsSchema,
  moveStudentsResultSchema,
  moveStudentsSchema,
  publicBookingSchema,
  publicCancelSchema,
  rescheduleSchema,
} from '@studio/contracts';
import { createZodDto } from '../../common/zod-dto';

export class PublicBookingDto extends createZodDto(publicBookingSchema) {}
export class PublicCancelDto extends createZodDto(publicCancelSchema) {}
export class RescheduleDto extends createZodDto(rescheduleSchema) {}
export class AdminRescheduleDto extends createZodDto(adminRescheduleSchema) {}
export class AdminCancelDto extends createZodDto(adminCancelSchema) {}
export class BookingTermsDto extends createZodDto(bookingTermsSchema) {}
export class MoveStudentsDto extends createZodDto(moveStudentsSchema) {}
export class MoveStudentsResultDto extends createZodDto(moveStudentsResultSchema) {}
