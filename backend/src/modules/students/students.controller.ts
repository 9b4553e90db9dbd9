import { Body, Controller, Get, Param, Post, Put, Query } from '@nestjs/common';
import { ApiNotFoundResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { createZodDto, ZodResponse } from 'nestjs-zod';
import { z } from 'zod';
import { ErrorBodyDto } from '../../common/error-body.dto';
import { Ctx, RequestContext } from '../../common/request-context';
import { UuidParamPipe } from '../../common/uuid-param.pipe';
import { Auth } from '../identity/auth.guard';
import { mapStudent, StudentsService } from './students.service';

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
class StudentListDto extends createZodDto(
  z.object({
    students: z.array(studentOut),
    totalCount: z.number().int(),
    currentPage: z.number().int(),
    itemsPerPage: z.number().int(),
  }),
) {}
class StudentQueryDto extends createZodDto(
  z
    .object({
      search: z.string().max(200).optional(),
      page: z.coerce.number().int().min(1).optional().default(1),
      limit: z.coerce.number().int().min(1).max(100).optional().default(20),
    })
    .strict(),
) {}
const nameRule = (what: string) => z.string({ error: `A ${what} is required.` }).trim().min(1, `A ${what} is required.`).max(100);
class StudentCreateDto extends createZodDto(
  z
    .object({
      first_name: nameRule('first name'),
      last_name: nameRule('last name'),
      email: z.email({ error: 'Enter a valid email address' }),
      phone: z.string().trim().max(40).nullable().optional(),
    })
    .strict(),
) {}
class StudentRenameDto extends createZodDto(z.object({ first_name: nameRule('first name'), last_name: nameRule('last name') }).strict()) {}

@ApiTags('students')
@Controller('admin/student')
@Auth()
export class StudentsController {
  constructor(private readonly students: StudentsService) {}

  @Get()
  @ApiOperation({ summary: 'Students by last name; `search` matches any part of the name or email' })
  @ZodResponse({ status: 200, type: StudentListDto })
  async list(@Ctx() ctx: RequestContext, @Query() query: StudentQueryDto) {
    const { students, total } = await this.students.list(ctx, query);
    return { students: students.map(mapStudent), totalCount: total, currentPage: query.page, itemsPerPage: query.limit };
  }

  @Post()
  @ApiOperation({ summary: 'Add a student' })
  @ZodResponse({ status: 201, type: StudentOutDto })
  async create(@Ctx() ctx: RequestContext, @Body() body: StudentCreateDto) {
    return mapStudent(await this.students.create(ctx, body));
  }

  @Get(':student_id')
  @ApiOperation({ summary: 'One student' })
  @ZodResponse({ status: 200, type: StudentOutDto })
  @ApiNotFoundResponse({ type: ErrorBodyDto })
  async get(@Ctx() ctx: RequestContext, @Param('student_id', UuidParamPipe) id: string) {
    return mapStudent(await this.students.requireStudent(ctx, id));
  }

  @Put(':student_id')
  @ApiOperation({ summary: "Change a student's first and last name" })
  @ZodResponse({ status: 200, type: StudentOutDto })
  @ApiNotFoundResponse({ type: ErrorBodyDto })
  async rename(@Ctx() ctx: RequestContext, @Param('student_id', UuidParamPipe) id: string, @Body() body: StudentRenameDto) {
    return mapStudent(await this.students.rename(ctx, id, body));
  }
}
