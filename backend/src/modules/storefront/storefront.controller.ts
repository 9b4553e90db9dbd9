import { Body, Controller, Get, Header, HttpCode, Param, Post, Query, UseGuards } from '@nestjs/common';
import {
  ApiBadGatewayResponse,
  ApiConflictResponse,
  ApiNotFoundResponse,
  ApiOperation,
  ApiParam,
  ApiTags,
  ApiTooManyRequestsResponse,
} from '@nestjs/swagger';
import { APPOINTMENT_MESSAGES, CHECKOUT_MESSAGES, STORE_MESSAGES, STORE_REFUSALS, STORE_WAIVER_MESSAGES } from '@studio/contracts';
import { ZodResponse } from 'nestjs-zod';
import { ErrorBodyDto } from '../../common/error-body.dto';
import { isUuid, UuidParamPipe } from '../../common/uuid-param.pipe';
import { notFound } from '../../common/api-error';
import { PublicRateLimitGuard } from './public-rate-limit.guard';
import {
  CheckoutDto,
  CheckoutQuoteDto,
  CheckoutQuoteResultDto,
  CheckoutResultDto,
  OrderTokenQueryDto,
  PointsBalanceDto,
  PointsCodeRequestDto,
  PointsCodeSentDto,
  PointsVerifyDto,
  PublicCheckoutSessionDto,
  PublicCourseDto,
  PublicOrderDto,
  PublicProductDto,
  PublicStoreDto,
  StoreWaiverRequestDto,
  StoreWaiverStartDto,
  StoreWaiverStatusDto,
  WaiverTokenQueryDto,
} from './storefront.dto';
import { ApiInvalidBody, ApiInvalidQuery } from '../../common/api-errors';
import { Idempotent } from '../../common/idempotency/idempotency.interceptor';
import { StoreCheckoutService } from '../orders/store-checkout.service';
import { LoyaltyCodesService } from '../loyalty/loyalty-codes.service';
import { StoreWalletPayment } from '../orders/store-wallet';
import type { Organization } from '../organizations/organization.entity';
import { CurrentStore, StoreGuard } from './store.guard';
import { StorefrontService } from './storefront.service';

/** How an appointment course's time is booked (issue 22), as the quote and the checkout say. */
const APPOINTMENT_CHOICE =
  'An appointment course is booked with activity_id and starts_at (one of the starts GET activities/{activity_id}/slots answers) in place of event_id, never both: one party (the buyer and guests, party_size) within the course\'s capacity ' +
  `(400 "This appointment takes at most N people"), a course booked by sessions is 400 "${APPOINTMENT_MESSAGES.notAppointmentCourse}". ` +
  'The time is held for the order while the buyer pays (booked once paid, free again when the payment is abandoned or expires; booked at once when nothing is due).';

/** The tag of every Storefront API operation (no sign-in: `security: []` in the document). */
export const STOREFRONT_TAG = 'storefront';

export const SLUG_PARAM = ApiParam({
  name: 'slug',
  description: "The store's address (Settings → Organization), as in PUBLIC_APP_URL/s/{slug}",
  example: 'demo-studio',
});

/**
 * The Storefront API (issue 21): what a studio's store shows, readable by anyone, so a studio can
 * build its own site on it. Read calls answer any origin (CORS) and are rate-limited per address.
 */
@ApiTags(STOREFRONT_TAG)
@Controller('public/:slug')
@UseGuards(PublicRateLimitGuard)
@ApiTooManyRequestsResponse({ type: ErrorBodyDto, description: STORE_MESSAGES.tooManyRequests })
export class StorefrontController {
  constructor(
    private readonly storefront: StorefrontService,
    private readonly checkouts: StoreCheckoutService,
    private readonly pointsCodes: LoyaltyCodesService,
    private readonly storeWallet: StoreWalletPayment,
  ) {}

  @Get()
  @Header('Access-Control-Allow-Origin', '*')
  @SLUG_PARAM
  @ApiOperation({ summary: 'A store: its name, zone and address, its published courses and its products' })
  @ApiNotFoundResponse({ type: ErrorBodyDto, description: STORE_MESSAGES.storeNotFound })
  @ZodResponse({ status: 200, type: PublicStoreDto })
  home(@Param('slug') slug: string) {
    return this.storefront.home(slug);
  }

  @Get('activities/:activity_id')
  @Header('Access-Control-Allow-Origin', '*')
  @SLUG_PARAM
  @ApiOperation({
    summary: 'A published course with its upcoming sessions and the seats left in each (never who took them)',
  })
  @ApiNotFoundResponse({
    type: ErrorBodyDto,
    description: `${STORE_MESSAGES.storeNotFound}, or ${STORE_MESSAGES.courseNotFound}`,
  })
  @ZodResponse({ status: 200, type: PublicCourseDto })
  course(@Param('slug') slug: string, @Param('activity_id', UuidParamPipe) id: string) {
    return this.storefront.course(slug, id);
  }

  @Get('products/:product_id')
  @Header('Access-Control-Allow-Origin', '*')
  @SLUG_PARAM
  @ApiOperation({ summary: 'A published product with its current price' })
  @ApiNotFoundResponse({
    type: ErrorBodyDto,
    description: `${STORE_MESSAGES.storeNotFound}, or ${STORE_MESSAGES.productNotFound}`,
  })
  @ZodResponse({ status: 200, type: PublicProductDto })
  product(@Param('slug') slug: string, @Param('product_id', UuidParamPipe) id: string) {
    return this.storefront.product(slug, id);
  }

  @Get('sessions/:event_id')
  @Header('Access-Control-Allow-Origin', '*')
  @SLUG_PARAM
  @ApiOperation({
    summary:
      "What a session's checkout page shows: the store's name, the session's course, and the session with its seats left",
    description:
      'A session that cannot be booked (past, cancelled, of an unlisted course or another store) answers 404 as an unknown one.',
  })
  @ApiNotFoundResponse({
    type: ErrorBodyDto,
    description: `${STORE_MESSAGES.storeNotFound}, or ${CHECKOUT_MESSAGES.sessionNotFound}`,
  })
  @ZodResponse({ status: 200, type: PublicCheckoutSessionDto })
  checkoutSession(@Param('slug') slug: string, @Param('event_id') eventId: string) {
    if (!isUuid(eventId)) throw notFound(CHECKOUT_MESSAGES.sessionNotFound);
    return this.storefront.checkoutSession(slug, eventId.toLowerCase());
  }

  @Post('checkout/quote')
  @HttpCode(200)
  @UseGuards(StoreGuard)
  @SLUG_PARAM
  @ApiOperation({
    summary:
      'What a party would pay for a session, or for an appointment course at a time, with a discount code, and the seats left (display: the checkout prices again)',
    description: APPOINTMENT_CHOICE,
  })
  @ApiInvalidBody()
  @ApiNotFoundResponse({
    type: ErrorBodyDto,
    description: `${STORE_MESSAGES.storeNotFound}, ${CHECKOUT_MESSAGES.sessionNotFound}, or ${APPOINTMENT_MESSAGES.courseNotFound}`,
  })
  @ApiConflictResponse({
    type: ErrorBodyDto,
    description: `More points than the balance: "You have only N points"; an appointment time that is not offered now ("${APPOINTMENT_MESSAGES.notOffered}") or taken ("${APPOINTMENT_MESSAGES.taken}")`,
  })
  @ZodResponse({ status: 200, type: CheckoutQuoteResultDto })
  quote(@CurrentStore() store: Organization, @Body() body: CheckoutQuoteDto) {
    return this.checkouts.quote(store, body);
  }

  @Post('checkout')
  @UseGuards(StoreGuard)
  @Idempotent(
    'One per checkout (1 to 200 characters): a retry with the same key and body answers the first answer again, without booking or charging again. Kept 24 hours. A retry whose first call never answered (its process died) resumes the same order and answers its payment page; so does the same body sent with another key while that order waits for payment. Another body from the same buyer for the same session replaces the waiting order (its seats released, its page closed).',
  )
  @SLUG_PARAM
  @ApiOperation({
    summary:
      'Books a party in a session (event_id) or at an appointment course\'s time (activity_id with starts_at), or buys a product (product_id): a session\'s seats or the appointment\'s time are held while the buyer pays at payment_url (or booked at once when nothing is due); a paid product is paid at payment_url (a subscription starts once paid), a lead magnet mails its download at once',
    description:
      'The buyer is found by email (case-insensitive) or created; a student\'s stored name is never changed, and the order keeps the name and email typed for it. The answers are the same whatever the email (nothing tells whether it is a student\'s, nor what they booked). The total is computed here, by the one pricing function. Seats that are not left answer 409 "Sold out" or "Only N seats left", and nothing is charged; an email that already has a seat, or seats waiting for payment, in the session is told "' +
      STORE_REFUSALS.seatsNotHeld.message +
      '" once the seats themselves are free. A course that requires a waiver needs a signature made in a checkout for this email (POST waiver, then waiver_token here; a buyer who proved the email with points_token may use one they made before): without it 400 "' +
      STORE_WAIVER_MESSAGES.notSigned +
      '"; a token of another buyer, waiver or store 400 "' +
      STORE_WAIVER_MESSAGES.tokenInvalid +
      '". The seat then starts with its waiver signed. ' +
      APPOINTMENT_CHOICE,
  })
  @ApiInvalidBody()
  @ApiNotFoundResponse({
    type: ErrorBodyDto,
    description: `${STORE_MESSAGES.storeNotFound}, ${CHECKOUT_MESSAGES.sessionNotFound}, ${APPOINTMENT_MESSAGES.courseNotFound}, or ${CHECKOUT_MESSAGES.productNotFound}`,
  })
  @ApiConflictResponse({
    type: ErrorBodyDto,
    description: `${CHECKOUT_MESSAGES.soldOut}, Only N seats left, "${STORE_REFUSALS.seatsNotHeld.message}" (the email already has a seat or seats waiting for payment there), more points than the balance ("You have only N points"), or an appointment time not offered now ("${APPOINTMENT_MESSAGES.notOffered}") or just taken by another checkout ("${APPOINTMENT_MESSAGES.taken}"); nothing changes and nothing is charged. "${CHECKOUT_MESSAGES.checkoutEnded}" when the order ended while its payment page was being made (its page is closed, nothing can be charged)`,
  })
  @ApiBadGatewayResponse({ type: ErrorBodyDto, description: CHECKOUT_MESSAGES.paymentFailed })
  @ZodResponse({ status: 201, type: CheckoutResultDto })
  checkout(@CurrentStore() store: Organization, @Body() body: CheckoutDto) {
    return this.checkouts.checkout(store, body);
  }

  @Post('waiver')
  @HttpCode(200)
  @UseGuards(StoreGuard)
  @SLUG_PARAM
  @ApiOperation({
    summary: "Starts the buyer's signing of the waiver of the session's course (event_id) or of the appointment course (activity_id), before payment",
    description:
      'The answer is the same whatever the email, and nothing is created for it: a new signing for the name and email typed, its page to frame in the checkout and the secret waiver_token to send with the checkout (whose student the signature then becomes); nothing is mailed. Only with a points_token proving this email, a buyer whose student signed this waiver before answers signed: true (waiver_token names that signature) and signs nothing. ' +
      `A course that requires no waiver: 400 "${STORE_WAIVER_MESSAGES.notRequired}".`,
  })
  @ApiInvalidBody()
  @ApiNotFoundResponse({
    type: ErrorBodyDto,
    description: `${STORE_MESSAGES.storeNotFound}, ${CHECKOUT_MESSAGES.sessionNotFound}, or ${APPOINTMENT_MESSAGES.courseNotFound}`,
  })
  @ZodResponse({ status: 200, type: StoreWaiverStartDto })
  waiver(@CurrentStore() store: Organization, @Body() body: StoreWaiverRequestDto) {
    return this.checkouts.waiver(store, body);
  }

  @Get('waiver/status')
  @UseGuards(StoreGuard)
  @SLUG_PARAM
  @ApiOperation({ summary: 'Whether the waiver signing named by its token is done (the checkout page polls it)' })
  @ApiInvalidQuery()
  @ApiNotFoundResponse({
    type: ErrorBodyDto,
    description: `${STORE_MESSAGES.storeNotFound}, or ${STORE_WAIVER_MESSAGES.notFound}`,
  })
  @ZodResponse({ status: 200, type: StoreWaiverStatusDto })
  waiverStatus(@CurrentStore() store: Organization, @Query() query: WaiverTokenQueryDto) {
    return this.checkouts.waiverStatus(store, query.token);
  }

  @Post('points/code')
  @HttpCode(202)
  @UseGuards(StoreGuard)
  @SLUG_PARAM
  @ApiOperation({
    summary: "Mails a one-time code to a student's email, to use their loyalty points at the checkout",
    description:
      'When the email is a student\'s in this store and its loyalty programme is active or the student holds a membership, class pack, gift card or store credit here, a 6-digit code valid 10 minutes is mailed to it (at most 5 an hour). The answer is the same whatever the email.',
  })
  @ApiInvalidBody()
  @ApiNotFoundResponse({ type: ErrorBodyDto, description: STORE_MESSAGES.storeNotFound })
  @ZodResponse({ status: 202, type: PointsCodeSentDto })
  async pointsCode(@CurrentStore() store: Organization, @Body() body: PointsCodeRequestDto) {
    await this.pointsCodes.requestCode(store, body.email, async (studentId) => (await this.storeWallet.holdingsShown(store.id, studentId)).length > 0);
    return { message: CHECKOUT_MESSAGES.pointsCodeSent };
  }

  @Post('points/verify')
  @HttpCode(200)
  @UseGuards(StoreGuard)
  @SLUG_PARAM
  @ApiOperation({
    summary: 'Checks the code from the mail: the points balance, what the email holds that pays here, and the proof (points_token, 30 minutes) the quote and checkout take',
    description: `A wrong, used or expired code, or an email without a code, answers 400 "${CHECKOUT_MESSAGES.pointsCodeWrong}"; after 5 wrong tries the code is void.`,
  })
  @ApiInvalidBody()
  @ApiNotFoundResponse({ type: ErrorBodyDto, description: STORE_MESSAGES.storeNotFound })
  @ZodResponse({ status: 200, type: PointsBalanceDto })
  async pointsVerify(@CurrentStore() store: Organization, @Body() body: PointsVerifyDto) {
    const proof = await this.pointsCodes.verify(store.id, body.email, body.code);
    const studentId = await this.pointsCodes.studentForToken(store.id, proof.points_token);
    // What this email holds that pays here (its own only: the code proved the email).
    return { ...proof, holdings: studentId ? await this.storeWallet.holdingsShown(store.id, studentId) : [] };
  }

  @Get('orders/:order_id')
  @UseGuards(StoreGuard)
  @SLUG_PARAM
  @ApiOperation({
    summary: 'A store order as its buyer sees it, with the token of its confirmation link',
    description: "The buyer is shown as typed for this order, never the student's stored name.",
  })
  @ApiInvalidQuery()
  @ApiNotFoundResponse({ type: ErrorBodyDto, description: CHECKOUT_MESSAGES.orderNotFound })
  @ZodResponse({ status: 200, type: PublicOrderDto })
  order(
    @CurrentStore() store: Organization,
    @Param('order_id', UuidParamPipe) orderId: string,
    @Query() query: OrderTokenQueryDto,
  ) {
    return this.checkouts.order(store, orderId, query.token);
  }
}

/**
 * The Storefront operations say they need no sign-in (`security: []`), so a client generated from
 * the document calls them without a token.
 */
export function markPublicOperations(document: { paths: Record<string, object> }): void {
  for (const item of Object.values(document.paths))
    for (const op of Object.values(item) as { tags?: string[]; security?: unknown[] }[])
      if (op && typeof op === 'object' && op.tags?.includes(STOREFRONT_TAG)) op.security = [];
}
