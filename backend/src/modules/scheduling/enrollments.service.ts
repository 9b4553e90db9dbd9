/**
 * The scheduling module's seat API for the other modules (orders, payment links, the store's
 * checkout, waivers, waitlist, manage-booking): one exported service, so they keep one dependency
 * while the work lives in the file that owns each job (issue 33). It decides nothing itself; each
 * method hands over to its owner unchanged:
 * - SeatWriter (seat-writer.ts): the one writer of a seat (enroll, createSeat, sales on other
 *   platforms and their release, order link, waiver status);
 * - SeatHoldsService (seat-holds.service.ts): payment-link, checkout and waitlist-offer holds and
 *   their conversion into seats;
 * - SeatAdminService (seat-admin.service.ts): Remove student and its refund's removal, moves;
 * - enrollment-lookups.query.ts: the small reads other journeys ask.
 * The admin's own screens (the grid, check-in, guests) call EnrollmentGridQuery and SeatAdminService
 * from the module's controller directly.
 */
import { EntityManager } from '@mikro-orm/postgresql';
import { Injectable } from '@nestjs/common';
import { RequestContext } from '../../common/request-context';
import { activeForOrder, activeRequiringWaiver, removalContext } from './enrollment-lookups.query';
import { SeatAdminService } from './seat-admin.service';
import { SeatHoldsService } from './seat-holds.service';
import { SeatWriter } from './seat-writer';

export type { EnrollmentRow } from './enrollment-grid.query';
export { ENROLLMENT_SELECT, enrollmentWhere, mapEnrollmentRow } from './enrollment-grid.query';
export { courseRules } from './enrollment-lookups.query';
export type { CheckIn, MovedSeat } from './seat-admin.service';
export type { HeldSeat, HoldConversion } from './seat-holds.service';
export type { EnrolledSeat, RemovedSeat } from './seat-writer';

@Injectable()
export class EnrollmentsService {
  constructor(
    private readonly em: EntityManager,
    private readonly writer: SeatWriter,
    private readonly holds: SeatHoldsService,
    private readonly admin: SeatAdminService,
  ) {}

  // Seats taken, released and linked: SeatWriter.

  enroll(...args: Parameters<SeatWriter['enroll']>) {
    return this.writer.enroll(...args);
  }

  refusalBeforeLock(...args: Parameters<SeatWriter['refusalBeforeLock']>) {
    return this.writer.refusalBeforeLock(...args);
  }

  enrollExternal(...args: Parameters<SeatWriter['enrollExternal']>) {
    return this.writer.enrollExternal(...args);
  }

  releaseExternal(...args: Parameters<SeatWriter['releaseExternal']>) {
    return this.writer.releaseExternal(...args);
  }

  linkOrder(...args: Parameters<SeatWriter['linkOrder']>) {
    return this.writer.linkOrder(...args);
  }

  setWaiverStatus(...args: Parameters<SeatWriter['setWaiverStatus']>) {
    return this.writer.setWaiverStatus(...args);
  }

  // Holds: SeatHoldsService.

  hold(...args: Parameters<SeatHoldsService['hold']>) {
    return this.holds.hold(...args);
  }

  releaseHold(...args: Parameters<SeatHoldsService['releaseHold']>) {
    return this.holds.releaseHold(...args);
  }

  holdForOffer(...args: Parameters<SeatHoldsService['holdForOffer']>) {
    return this.holds.holdForOffer(...args);
  }

  offerHoldState(...args: Parameters<SeatHoldsService['offerHoldState']>) {
    return this.holds.offerHoldState(...args);
  }

  endOfferHold(...args: Parameters<SeatHoldsService['endOfferHold']>) {
    return this.holds.endOfferHold(...args);
  }

  claimOfferHold(...args: Parameters<SeatHoldsService['claimOfferHold']>) {
    return this.holds.claimOfferHold(...args);
  }

  convertHold(...args: Parameters<SeatHoldsService['convertHold']>) {
    return this.holds.convertHold(...args);
  }

  // The studio's actions on seats: SeatAdminService.

  remove(...args: Parameters<SeatAdminService['remove']>) {
    return this.admin.remove(...args);
  }

  lockSeatOf(...args: Parameters<SeatAdminService['lockSeatOf']>) {
    return this.admin.lockSeatOf(...args);
  }

  removeRefunded(...args: Parameters<SeatAdminService['removeRefunded']>) {
    return this.admin.removeRefunded(...args);
  }

  moveSeats(...args: Parameters<SeatAdminService['moveSeats']>) {
    return this.admin.moveSeats(...args);
  }

  // Reads: the small look-ups (enrollment-lookups.query.ts).

  removalContext(ctx: Pick<RequestContext, 'organizationId'>, enrollmentId: string) {
    return removalContext(this.em, ctx.organizationId, enrollmentId);
  }

  activeRequiringWaiver(organizationId: string, studentId: string, templateId: string) {
    return activeRequiringWaiver(this.em, organizationId, studentId, templateId);
  }

  activeForOrder(organizationId: string, orderId: string) {
    return activeForOrder(this.em, organizationId, orderId);
  }
}
