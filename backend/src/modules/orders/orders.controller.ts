import { Body, Controller, Param, Post } from '@nestjs/common';
import { ApiConflictResponse, ApiNotFoundResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { enrollBodySchema } from '@studio/contracts';
import { ZodResponse } from 'nestjs-zod';
import { createZodDto } from '../../common/zod-dto';
import { z } from 'zod';
import { notFound } from '../../common/api-error';
import { ErrorBodyDto } from '../../common/error-body.dto';
import { Ctx, RequestContext } from '../../common/request-context';
import { UuidParamPipe } from '../../common/uuid-param.pipe';
import { Auth } from '../identity/auth.guard';
import { OrdersService } from './orders.service';
import { ApiInvalidBody } from '../../common/api-errors';

class EnrollBodyDto extends createZodDto(enrollBodySchema) {}
class EnrolledDto extends createZodDto(
  z.object({ enrollment_id: z.uuid(), order_id: z.uuid(), order_number: z.number().int(), total: z.number().int(), source: z.string() }),
) {}

@ApiTags('orders')
@Controller('admin/orders')
@Auth()
export class OrdersController {
  constructor(private readonly orders: OrdersService) {}

  @Post('enroll/:student_id')
  @ApiOperation({ summary: 'Enroll a student directly: the seat and a zero-total order from source workbench' })
  @ZodResponse({ status: 201, type: EnrolledDto })
  @ApiNotFoundResponse({ type: ErrorBodyDto })
  @ApiConflictResponse({ type: ErrorBodyDto, description: 'Already enrolled, or no seat left' })
  @ApiInvalidBody()
  async enroll(@Ctx() ctx: RequestContext, @Param('student_id', UuidParamPipe) studentId: string, @Body() body: EnrollBodyDto) {
    // Appointments (students pick the time) arrive with their own issue; none exist yet.
    if (!body.event_id) throw notFound('Appointment not found');
    const { enrollment, order } = await this.orders.enrollDirectly(ctx, studentId, body.event_id);
    return { enrollment_id: enrollment.id, order_id: order.id, order_number: order.orderNumber, total: order.totalCents, source: order.source };
  }
}
