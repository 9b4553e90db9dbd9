import { Body, Controller, Get, Param, Post, Put, Query } from '@nestjs/common';
import { ApiNotFoundResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CANCELLATION_POLICIES, RESCHEDULING_POLICIES } from '@studio/contracts';
import { ZodResponse } from 'nestjs-zod';
import { ErrorBodyDto } from '../../common/error-body.dto';
import { Ctx, RequestContext } from '../../common/request-context';
import { UuidParamPipe } from '../../common/uuid-param.pipe';
import { Auth } from '../identity/auth.guard';
import {
  AvailabilityDto,
  InstructorDto,
  InstructorListDto,
  InstructorOutDto,
  LocationDto,
  LocationListDto,
  LocationOutDto,
  PolicyListDto,
  WaiverDto,
  WaiverListDto,
  WaiverListQueryDto,
  WaiverOutDto,
} from './catalog.dto';
import { mapInstructor, mapLocation, mapWaiverSummary, ReferenceDataService } from './reference-data.service';
import { ApiInvalidBody, ApiInvalidQuery } from '../../common/api-errors';

@ApiTags('locations')
@Controller('admin/location')
@Auth()
export class LocationsController {
  constructor(private readonly reference: ReferenceDataService) {}

  @Get()
  @ApiOperation({ summary: "The organization's locations" })
  @ZodResponse({ status: 200, type: LocationListDto })
  async list(@Ctx() ctx: RequestContext) {
    return { locations: (await this.reference.listLocations(ctx)).map(mapLocation) };
  }

  @Post()
  @ApiOperation({ summary: 'Add a location' })
  @ZodResponse({ status: 201, type: LocationOutDto })
  @ApiInvalidBody()
  async create(@Ctx() ctx: RequestContext, @Body() body: LocationDto) {
    return mapLocation(await this.reference.createLocation(ctx, body));
  }

  @Put(':location_id')
  @ApiOperation({ summary: 'Edit a location' })
  @ZodResponse({ status: 200, type: LocationOutDto })
  @ApiNotFoundResponse({ type: ErrorBodyDto })
  @ApiInvalidBody()
  async update(@Ctx() ctx: RequestContext, @Param('location_id', UuidParamPipe) id: string, @Body() body: LocationDto) {
    return mapLocation(await this.reference.updateLocation(ctx, id, body));
  }
}

@ApiTags('instructors')
@Controller('admin/instructor')
@Auth()
export class InstructorsController {
  constructor(private readonly reference: ReferenceDataService) {}

  @Get()
  @ApiOperation({ summary: "The organization's instructors" })
  @ZodResponse({ status: 200, type: InstructorListDto })
  async list(@Ctx() ctx: RequestContext) {
    return { instructors: (await this.reference.listInstructors(ctx)).map(mapInstructor) };
  }

  @Post()
  @ApiOperation({ summary: 'Add an instructor (photo_url: an image uploaded with POST /api/admin/upload)' })
  @ZodResponse({ status: 201, type: InstructorOutDto })
  @ApiNotFoundResponse({
    type: ErrorBodyDto,
    description: 'photo_url is an upload this organization does not have',
  })
  @ApiInvalidBody()
  async create(@Ctx() ctx: RequestContext, @Body() body: InstructorDto) {
    return mapInstructor(await this.reference.createInstructor(ctx, body));
  }

  @Put(':instructor_id')
  @ApiOperation({ summary: 'Edit an instructor' })
  @ZodResponse({ status: 200, type: InstructorOutDto })
  @ApiNotFoundResponse({
    type: ErrorBodyDto,
    description: 'No such instructor, or photo_url is an upload this organization does not have',
  })
  @ApiInvalidBody()
  async update(@Ctx() ctx: RequestContext, @Param('instructor_id', UuidParamPipe) id: string, @Body() body: InstructorDto) {
    return mapInstructor(await this.reference.updateInstructor(ctx, id, body));
  }

  @Get(':instructor_id/availability')
  @ApiOperation({
    summary: "The instructor's bookable hours: weekly hours (sun … sat, ranges 'HH:mm') and date overrides, in the location's zone (none set: every day closed)",
  })
  @ZodResponse({ status: 200, type: AvailabilityDto })
  @ApiNotFoundResponse({ type: ErrorBodyDto, description: 'Instructor not found' })
  availability(@Ctx() ctx: RequestContext, @Param('instructor_id', UuidParamPipe) id: string) {
    return this.reference.instructorAvailability(ctx, id);
  }

  @Put(':instructor_id/availability')
  @ApiOperation({
    summary: "Replace the instructor's bookable hours (appointment courses without hours of their own book these); answers them as saved",
  })
  @ZodResponse({ status: 200, type: AvailabilityDto })
  @ApiNotFoundResponse({ type: ErrorBodyDto, description: 'Instructor not found' })
  @ApiInvalidBody()
  async setAvailability(@Ctx() ctx: RequestContext, @Param('instructor_id', UuidParamPipe) id: string, @Body() body: AvailabilityDto) {
    return this.reference.setInstructorAvailability(ctx, id, body);
  }
}

@ApiTags('waivers')
@Controller('admin/waiver')
@Auth()
export class WaiversController {
  constructor(private readonly reference: ReferenceDataService) {}

  @Get()
  @ApiOperation({ summary: 'Waiver templates, by name (the course form asks for limit=1000&page=1)' })
  @ZodResponse({ status: 200, type: WaiverListDto })
  @ApiInvalidQuery()
  async list(@Ctx() ctx: RequestContext, @Query() query: WaiverListQueryDto) {
    const { waivers, total } = await this.reference.listWaivers(ctx, query.page, query.limit);
    return { waivers: waivers.map(mapWaiverSummary), totalCount: total, page: query.page, limit: query.limit };
  }

  @Get(':template_id')
  @ApiOperation({ summary: 'One waiver template' })
  @ZodResponse({ status: 200, type: WaiverOutDto })
  @ApiNotFoundResponse({ type: ErrorBodyDto })
  async get(@Ctx() ctx: RequestContext, @Param('template_id', UuidParamPipe) id: string) {
    const waiver = await this.reference.requireWaiver(ctx, id);
    return { ...mapWaiverSummary(waiver), body: waiver.body, document_url: waiver.documentUrl ?? null, created_at: waiver.createdAt.toISOString() };
  }

  @Post()
  @ApiOperation({ summary: "Add a waiver template (its text, or its document: an https:// link or one of the organization's uploads)" })
  @ZodResponse({ status: 201, type: WaiverOutDto })
  @ApiInvalidBody()
  @ApiNotFoundResponse({ type: ErrorBodyDto, description: "document_url is an upload this organization does not have" })
  async create(@Ctx() ctx: RequestContext, @Body() body: WaiverDto) {
    const waiver = await this.reference.createWaiver(ctx, body);
    return { ...mapWaiverSummary(waiver), body: waiver.body, document_url: waiver.documentUrl ?? null, created_at: waiver.createdAt.toISOString() };
  }
}

@ApiTags('policies')
@Controller('admin/policies')
@Auth()
export class PoliciesController {
  @Get()
  @ApiOperation({ summary: 'The fixed cancellation and rescheduling policies with their ids' })
  @ZodResponse({ status: 200, type: PolicyListDto })
  list() {
    return { cancellation: [...CANCELLATION_POLICIES], rescheduling: [...RESCHEDULING_POLICIES] };
  }
}
