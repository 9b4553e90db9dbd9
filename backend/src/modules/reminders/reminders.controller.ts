import { Controller, Get, Param } from '@nestjs/common';
import { ApiNotFoundResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ZodResponse } from 'nestjs-zod';
import { ErrorBodyDto } from '../../common/error-body.dto';
import { Ctx, RequestContext } from '../../common/request-context';
import { UuidParamPipe } from '../../common/uuid-param.pipe';
import { Auth } from '../identity/auth.guard';
import { StudentsService } from '../students/students.service';
import { StudentRemindersDto } from './reminders.dto';
import { RemindersLog } from './reminders-log';

@ApiTags('students')
@Controller('admin/student')
@Auth()
export class StudentRemindersController {
  constructor(
    private readonly students: StudentsService,
    private readonly log: RemindersLog,
  ) {}

  @Get(':student_id/reminders')
  @ApiOperation({
    summary: "The student's reminder mails (issue 23), newest first: what, when, to whom, the outcome",
    description: 'Each reminder job of the student\'s bookings logs one row: sent (to the address), skipped (why) or failed (the error).',
  })
  @ZodResponse({ status: 200, type: StudentRemindersDto })
  @ApiNotFoundResponse({ type: ErrorBodyDto })
  async list(@Ctx() ctx: RequestContext, @Param('student_id', UuidParamPipe) id: string) {
    await this.students.requireStudent(ctx, id);
    return { reminders: await this.log.forStudent(ctx.organizationId, id) };
  }
}
