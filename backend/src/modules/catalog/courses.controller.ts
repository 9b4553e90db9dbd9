import { Body, Controller, Get, Param, Post, Put, Query } from '@nestjs/common';
import { ApiBody, ApiExtraModels, ApiNotFoundResponse, ApiOperation, ApiQuery, ApiTags, getSchemaPath } from '@nestjs/swagger';
import {
  COURSE_LIST_MAX_LIMIT,
  COURSE_SORT_FIELDS,
  courseImagesUpdateSchema,
  courseListQuerySchema,
  courseUpdateSchema,
} from '@studio/contracts';
import { ZodResponse, ZodValidationException } from 'nestjs-zod';
import { ErrorBodyDto } from '../../common/error-body.dto';
import { Ctx, RequestContext } from '../../common/request-context';
import { UuidParamPipe } from '../../common/uuid-param.pipe';
import { Auth } from '../identity/auth.guard';
import { CourseCreateDto, CourseImagesUpdateDto, CourseListDto, CourseOutDto, CourseUpdateDto, CreatedCourseDto } from './catalog.dto';
import { CoursesService } from './courses.service';
import { ApiInvalidBody, ApiInvalidQuery } from '../../common/api-errors';

@ApiTags('courses')
@Controller('admin/activities')
@Auth()
export class CoursesController {
  constructor(private readonly courses: CoursesService) {}

  @Get()
  @ApiOperation({
    summary: "The organization's courses with their Listed badge: search (name), sort and page in SQL; without parameters, the newest 1000 (the pickers' list)",
  })
  @ApiQuery({ name: 'page', required: false, type: Number, description: 'from 1 (default 1)' })
  @ApiQuery({ name: 'limit', required: false, type: Number, description: `default and at most ${COURSE_LIST_MAX_LIMIT}` })
  @ApiQuery({ name: 'search', required: false, type: String, description: 'any part of the name' })
  @ApiQuery({ name: 'sortField', required: false, enum: COURSE_SORT_FIELDS, description: 'default created_at' })
  @ApiQuery({ name: 'sortOrder', required: false, enum: ['asc', 'desc'], description: 'default desc for created_at, asc otherwise' })
  @ZodResponse({ status: 200, type: CourseListDto })
  @ApiInvalidQuery()
  async list(@Ctx() ctx: RequestContext, @Query() raw: Record<string, unknown>) {
    const parsed = courseListQuerySchema.safeParse(raw);
    if (!parsed.success) throw new ZodValidationException(parsed.error);
    const query = parsed.data;
    const { items, total } = await this.courses.list(ctx, query);
    return { activities: items, totalCount: total, currentPage: query.page, itemsPerPage: query.limit };
  }

  @Post()
  @ApiOperation({ summary: 'Create a course (spec 000 §3 payload; price in cents)' })
  @ZodResponse({ status: 201, type: CreatedCourseDto })
  @ApiNotFoundResponse({ type: ErrorBodyDto, description: 'A location, instructor, waiver, form or image of another organization' })
  @ApiInvalidBody()
  async create(@Ctx() ctx: RequestContext, @Body() body: CourseCreateDto) {
    const course = await this.courses.create(ctx, body);
    return { activity_id: course.id };
  }

  @Get(':activity_id')
  @ApiOperation({ summary: 'One course with the fields of both specs' })
  @ZodResponse({ status: 200, type: CourseOutDto })
  @ApiNotFoundResponse({ type: ErrorBodyDto })
  get(@Ctx() ctx: RequestContext, @Param('activity_id', UuidParamPipe) id: string) {
    return this.courses.get(ctx, id);
  }

  @Put(':activity_id')
  @ApiOperation({ summary: 'Edit a course (spec 001 §7 body), or send only images to save an upload or delete at once' })
  @ApiExtraModels(CourseUpdateDto, CourseImagesUpdateDto)
  @ApiBody({ schema: { oneOf: [{ $ref: getSchemaPath(CourseUpdateDto) }, { $ref: getSchemaPath(CourseImagesUpdateDto) }] } })
  @ZodResponse({ status: 200, type: CourseOutDto })
  @ApiNotFoundResponse({ type: ErrorBodyDto })
  @ApiInvalidBody()
  async update(@Ctx() ctx: RequestContext, @Param('activity_id', UuidParamPipe) id: string, @Body() body: unknown) {
    const imagesOnly = typeof body === 'object' && body !== null && !Array.isArray(body) && Object.keys(body).join() === 'images';
    if (imagesOnly) {
      const parsed = courseImagesUpdateSchema.safeParse(body);
      if (!parsed.success) throw new ZodValidationException(parsed.error);
      await this.courses.updateImages(ctx, id, parsed.data.images);
    } else {
      const parsed = courseUpdateSchema.safeParse(body);
      if (!parsed.success) throw new ZodValidationException(parsed.error);
      await this.courses.update(ctx, id, parsed.data);
    }
    return this.courses.get(ctx, id);
  }
}
