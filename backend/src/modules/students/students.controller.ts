import { Body, Controller, Get, Param, Post, Put, Query } from '@nestjs/common';
import { ApiConflictResponse, ApiNotFoundResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { studentCreateSchema, studentListQuerySchema, studentNameSchema } from '@studio/contracts';
import { ZodResponse } from 'nestjs-zod';
import { createZodDto } from '../../common/zod-dto';
import { z } from 'zod';
import { ErrorBodyDto } from '../../common/error-body.dto';
import { Ctx, RequestContext } from '../../common/request-context';
import { UuidParamPipe } from '../../common/uuid-param.pipe';
import { Auth } from '../identity/auth.guard';
import { mapStudent, StudentsService } from './students.service';
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
class StudentListDto extends createZodDto(
  z.object({
    students: z.array(studentOut),
    totalCount: z.number().int(),
    currentPage: z.number().int(),
    itemsPerPage: z.number().int(),
  }),
) {}
class StudentQueryDto extends createZodDto(studentListQuerySchema) {}
class StudentCreateDto extends createZodDto(studentCreateSchema) {}
class StudentRenameDto extends createZodDto(studentNameSchema) {}

@ApiTags('students')
@Controller('admin/student')
@Auth()
export class StudentsController {
  constructor(private readonly students: StudentsService) {}

  @Get()
  @ApiOperation({ summary: 'Students by last name, paged in SQL; `search` matches any part of the name or email' })
  @ZodResponse({ status: 200, type: StudentListDto })
  @ApiInvalidQuery()
  async list(@Ctx() ctx: RequestContext, @Query() query: StudentQueryDto) {
    const { students, total } = await this.students.list(ctx, query);
    return { students: students.map(mapStudent), totalCount: total, currentPage: query.page, itemsPerPage: query.limit };
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
  @ApiInvalidBody()
  async rename(@Ctx() ctx: RequestContext, @Param('student_id', UuidParamPipe) id: string, @Body() body: StudentRenameDto) {
    return mapStudent(await this.students.rename(ctx, id, body));
  }
}
