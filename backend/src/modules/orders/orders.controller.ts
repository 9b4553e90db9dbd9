import { Body, Controller, Get, Param, Post, Query } from '@nestjs/common';
import { ApiConflictResponse, ApiNotFoundResponse, ApiOperation, ApiQuery, ApiTags } from '@nestjs/swagger';
import { APPOINTMENT_MESSAGES, ORDER_LIST_MAX_LIMIT, ORDER_SORT_FIELDS, ORDER_STATUSES, enrollBodySchema, orderListQuerySchema } from '@studio/contracts';
import { ZodResponse, ZodValidationException } from 'nestjs-zod';
import { createZodDto } from '../../common/zod-dto';
import { z } from 'zod';
import { notFound } from '../../common/api-error';
import { ErrorBodyDto } from '../../common/error-body.dto';
import { Ctx, RequestContext } from '../../common/request-context';
import { UuidParamPipe } from '../../common/uuid-param.pipe';
import { Auth } from '../identity/auth.guard';
import { DirectEnrollService } from './direct-enroll.service';
import { OrderDetailService } from './order-detail.service';
import { OrderListQueryService } from './order-list.query';
import { ApiInvalidBody, ApiInvalidQuery } from '../../common/api-errors';
import { OrderListDto, OrderOutDto } from './orders.dto';

class EnrollBodyDto extends createZodDto(enrollBodySchema) {}
class EnrolledDto extends createZodDto(
  z.object({
    enrollment_id: z.uuid().nullable().describe('The seat enrolled (event_id); null for an appointment'),
    appointment_id: z.uuid().nullable().optional().describe('The appointment booked (appointment_id); null for a session'),
    order_id: z.uuid(),
    order_number: z.number().int(),
    total: z.number().int(),
    source: z.string(),
  }),
) {}

@ApiTags('orders')
@Controller('admin/orders')
@Auth()
export class OrdersController {
  constructor(
    private readonly orders: OrderListQueryService,
    private readonly enrolling: DirectEnrollService,
  ) {}

  @Get()
  @ApiOperation({ summary: "A page of the organization's orders: search, filters, sort and page in SQL" })
  @ApiQuery({ name: 'page', required: false, type: Number, description: 'from 1 (default 1)' })
  @ApiQuery({ name: 'limit', required: false, type: Number, description: `default 20, at most ${ORDER_LIST_MAX_LIMIT}` })
  @ApiQuery({ name: 'search', required: false, type: String, description: "order number, or any part of the student's name or email" })
  @ApiQuery({ name: 'status', required: false, enum: ORDER_STATUSES })
  @ApiQuery({ name: 'source', required: false, type: String, description: "workbench or a ticketing service's name" })
  @ApiQuery({ name: 'created_from', required: false, type: String, description: 'ISO 8601 instant: created at or after' })
  @ApiQuery({ name: 'created_to', required: false, type: String, description: 'ISO 8601 instant: created before' })
  @ApiQuery({ name: 'sortField', required: false, enum: ORDER_SORT_FIELDS, description: 'default created_at' })
  @ApiQuery({ name: 'sortOrder', required: false, enum: ['asc', 'desc'], description: 'default desc' })
  @ApiQuery({
    name: 'cursor',
    required: false,
    type: String,
    description: "the previous page's next_cursor (same sort): the page starts after its last row; `page` then only numbers it",
  })
  @ZodResponse({ status: 200, type: OrderListDto })
  @ApiInvalidQuery()
  async list(@Ctx() ctx: RequestContext, @Query() raw: Record<string, unknown>) {
    const parsed = orderListQuerySchema.safeParse(raw);
    if (!parsed.success) throw new ZodValidationException(parsed.error);
    const query = parsed.data;
    const { items, total, nextCursor } = await this.orders.list(ctx, query);
    return { orders: items, totalCount: total, currentPage: query.page, itemsPerPage: query.limit, next_cursor: nextCursor };
  }

  @Post('enroll/:student_id')
  @ApiOperation({
    summary:
      "Enroll a student directly: the seat (event_id), or the held appointment booked (appointment_id, the student mailed a confirmation), and a zero-total order from source workbench; with holding_id, booked on the student's membership or class pack (its use written to the wallet's ledger)",
  })
  @ZodResponse({ status: 201, type: EnrolledDto })
  @ApiNotFoundResponse({ type: ErrorBodyDto, description: "No such student, session or appointment in the organization, or no such holding of the student's" })
  @ApiConflictResponse({
    type: ErrorBodyDto,
    description: `Already enrolled, or no seat left; the holding does not cover the course, has expired or holds too little; for an appointment: "${APPOINTMENT_MESSAGES.otherStudent}", "${APPOINTMENT_MESSAGES.alreadyOrdered}", "${APPOINTMENT_MESSAGES.notHeld}" or "${APPOINTMENT_MESSAGES.holdExpired}"`,
  })
  @ApiInvalidBody()
  async enroll(@Ctx() ctx: RequestContext, @Param('student_id', UuidParamPipe) studentId: string, @Body() body: EnrollBodyDto) {
    if (body.appointment_id) {
      const { appointmentId, order } = await this.enrolling.enrollAppointment(ctx, studentId, body.appointment_id, body.holding_id);
      return { enrollment_id: null, appointment_id: appointmentId, order_id: order.id, order_number: order.orderNumber, total: order.totalCents, source: order.source };
    }
    if (!body.event_id) throw notFound('Event not found');
    const { enrollment, order } = await this.enrolling.enrollDirectly(ctx, studentId, body.event_id, body.holding_id);
    return { enrollment_id: enrollment.id, appointment_id: null, order_id: order.id, order_number: order.orderNumber, total: order.totalCents, source: order.source };
  }
}

/** One order (spec 001 §7 GET /api/admin/order/{id}). */
@ApiTags('orders')
@Controller('admin/order')
@Auth()
export class OrderController {
  constructor(private readonly orders: OrderDetailService) {}

  @Get(':order_id')
  @ApiOperation({ summary: 'One order with its lines, payment, subscriptions, checkout-form answers and student (spec 001 §3)' })
  @ZodResponse({ status: 200, type: OrderOutDto })
  @ApiNotFoundResponse({ type: ErrorBodyDto, description: 'No such order in the organization' })
  get(@Ctx() ctx: RequestContext, @Param('order_id', UuidParamPipe) id: string) {
    return this.orders.get(ctx, id);
  }
}
