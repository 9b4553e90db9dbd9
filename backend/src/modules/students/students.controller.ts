import { Body, Controller, Get, Param, Post, Put, Query } from '@nestjs/common';
import { ApiConflictResponse, ApiNotFoundResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import {
  ATTENDANCE_VALUES,
  LOYALTY_STATUSES,
  loyaltyEntrySchema,
  studentCreateSchema,
  studentListQuerySchema,
  studentNameSchema,
  waiverSubmissionSchema,
} from '@studio/contracts';
import { ZodResponse } from 'nestjs-zod';
import { createZodDto } from '../../common/zod-dto';
import { z } from 'zod';
import { ErrorBodyDto } from '../../common/error-body.dto';
import { Ctx, RequestContext } from '../../common/request-context';
import { UuidParamPipe } from '../../common/uuid-param.pipe';
import { Auth } from '../identity/auth.guard';
import { mapStudent, StudentsService } from './students.service';
import { StudentDetailParts } from './student-detail-parts';
import { OrganizationsService } from '../organizations/organizations.service';
import { ApiInvalidBody, ApiInvalidQuery } from '../../common/api-errors';

const studentOut = z.object({
  student_id: z.uuid(),
  first_name: z.string(),
  last_name: z.string(),
  email: z.string(),
  phone: z.string().nullable(),
  user_id: z.string().nullable(),
  created_at: z.string(),
});
class StudentOutDto extends createZodDto(studentOut) {}

/** Spec 001 §3 Student, as the student drawer reads it. */
const studentDetailOut = studentOut.extend({
  User: z
    .object({ first_name: z.string(), last_name: z.string(), phone: z.string().nullable() })
    .nullable()
    .describe("The student's account, when they signed up"),
  LoyaltyBalance: z
    .array(loyaltyEntrySchema)
    .describe('The points ledger, newest first: the first entry is the current balance (none: 0)'),
  Organization: z.object({
    timezone: z.string(),
    LoyaltyProgram: z
      .array(z.object({ status: z.enum(LOYALTY_STATUSES) }))
      .describe('the first entry says whether points can be edited'),
  }),
  new_orders: z
    .array(
      z.object({
        order_id: z.uuid(),
        order_number: z.number().int(),
        created_at: z.string(),
        total: z.number().int().describe('cents'),
        status: z.string(),
        image: z.string().nullable(),
        subDescription: z.string(),
      }),
    )
    .describe("The student's newest orders, newest first"),
  Submission: z.array(waiverSubmissionSchema).describe("The student's waivers (signature requests), newest first"),
  sessions: z
    .array(
      z.object({
        enrollment_id: z.uuid(),
        event_id: z.uuid(),
        name: z.string(),
        starts_at: z.string(),
        ends_at: z.string(),
        timezone: z.string(),
        checked_in_at: z.string().nullable(),
        attendance: z.enum(ATTENDANCE_VALUES),
      }),
    )
    .describe("The sessions the student is enrolled in, newest first, with their attendance (issue 23)"),
});
class StudentDetailDto extends createZodDto(studentDetailOut) {}
class StudentListDto extends createZodDto(
  z.object({
    students: z.array(studentOut),
    /** Null on a page asked for with a cursor: the count of the first page stands. */
    totalCount: z.number().int().nullable(),
    currentPage: z.number().int(),
    itemsPerPage: z.number().int(),
    /** Asks for the next page (same search, `cursor=`); null on the last page. */
    next_cursor: z.string().nullable(),
  }),
) {}
class StudentQueryDto extends createZodDto(studentListQuerySchema) {}
class StudentCreateDto extends createZodDto(studentCreateSchema) {}
class StudentRenameDto extends createZodDto(studentNameSchema) {}

@ApiTags('students')
@Controller('admin/student')
@Auth()
export class StudentsController {
  constructor(
    private readonly students: StudentsService,
    private readonly parts: StudentDetailParts,
    private readonly organizations: OrganizationsService,
  ) {}

  @Get()
  @ApiOperation({
    summary: 'Students by last name, paged in SQL; `search` matches any part of the name or email',
  })
  @ZodResponse({ status: 200, type: StudentListDto })
  @ApiInvalidQuery()
  async list(@Ctx() ctx: RequestContext, @Query() query: StudentQueryDto) {
    const { students, total, nextCursor } = await this.students.list(ctx, query);
    return {
      students: students.map(mapStudent),
      totalCount: total,
      currentPage: query.page,
      itemsPerPage: query.limit,
      next_cursor: nextCursor,
    };
  }

  @Post()
  @ApiOperation({ summary: 'Add a student to the organization (the email is unique inside it)' })
  @ZodResponse({ status: 201, type: StudentOutDto })
  @ApiInvalidBody()
  @ApiConflictResponse({ type: ErrorBodyDto, description: 'A student with this email already exists.' })
  async create(@Ctx() ctx: RequestContext, @Body() body: StudentCreateDto) {
    return mapStudent(await this.students.create(ctx, body));
  }

  @Get(':student_id')
  @ApiOperation({
    summary: 'One student with their account, points ledger, organization, newest orders, waivers and sessions with attendance (spec 001 §3, issue 23)',
  })
  @ZodResponse({ status: 200, type: StudentDetailDto })
  @ApiNotFoundResponse({ type: ErrorBodyDto })
  async get(@Ctx() ctx: RequestContext, @Param('student_id', UuidParamPipe) id: string) {
    const student = await this.students.requireStudent(ctx, id);
    const [orders, loyalty, organization, submissions, sessions] = await Promise.all([
      this.parts.recentOrders(ctx, id),
      this.parts.loyaltyBalance(ctx, id),
      this.organizations.current(ctx),
      this.parts.submissions(ctx, id),
      this.parts.studentSessions(ctx, id),
    ]);
    return {
      ...mapStudent(student),
      User: student.userId
        ? { first_name: student.firstName, last_name: student.lastName, phone: student.phone ?? null }
        : null,
      LoyaltyBalance: loyalty.entries,
      Organization: { timezone: organization.timezone, LoyaltyProgram: [{ status: loyalty.programStatus }] },
      new_orders: orders,
      Submission: submissions,
      sessions,
    };
  }

  @Put(':student_id')
  @ApiOperation({ summary: "Change a student's first and last name" })
  @ZodResponse({ status: 200, type: StudentOutDto })
  @ApiNotFoundResponse({ type: ErrorBodyDto })
  @ApiInvalidBody()
  async rename(
    @Ctx() ctx: RequestContext,
    @Param('student_id', UuidParamPipe) id: string,
    @Body() body: StudentRenameDto,
  ) {
    return mapStudent(await this.students.rename(ctx, id, body));
  }
}
