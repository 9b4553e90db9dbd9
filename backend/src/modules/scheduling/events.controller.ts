import { Body, Controller, Delete, Get, Param, Post, Put } from '@nestjs/common';
import { ApiConflictResponse, ApiNotFoundResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { eventScheduleSchema, eventTagsSchema, eventUpdateSchema, tagSchema } from '@studio/contracts';
import { ZodResponse } from 'nestjs-zod';
import { createZodDto } from '../../common/zod-dto';
import { z } from 'zod';
import { ErrorBodyDto } from '../../common/error-body.dto';
import { Ctx, RequestContext } from '../../common/request-context';
import { UuidParamPipe } from '../../common/uuid-param.pipe';
import { Auth } from '../identity/auth.guard';
import { EventsService } from './events.service';
import { TagsService } from './tags.service';
import { ApiInvalidBody } from '../../common/api-errors';

class EventScheduleDto extends createZodDto(eventScheduleSchema) {}
class EventUpdateDto extends createZodDto(eventUpdateSchema) {}
class TagDto extends createZodDto(tagSchema) {}
class EventTagsDto extends createZodDto(eventTagsSchema) {}

const tagOut = z.object({
  tag_id: z.string(),
  name: z.string(),
  color: z.string(),
  icon: z.string().nullable(),
  system: z.boolean(),
});
class TagOutDto extends createZodDto(tagOut) {}
class TagListDto extends createZodDto(z.object({ tags: z.array(tagOut) })) {}
class CreatedEventDto extends createZodDto(z.object({ event_id: z.uuid() })) {}
class DeletedEventDto extends createZodDto(z.object({ activity_id: z.uuid(), redirect_to: z.string() })) {}
const place = z.object({ address: z.string(), timezone: z.object({ timeZoneId: z.string() }) });
class EventOutDto extends createZodDto(
  z.object({
    event_id: z.uuid(),
    activity_id: z.uuid(),
    name: z.string(),
    internal_short_description: z.string().nullable(),
    capacity: z.number().int(),
    price: z.number().int().describe('cents'),
    status: z.string(),
    schedule: z.array(
      z.object({ start_date: z.string(), start_time: z.string(), duration: z.number().int() }),
    ),
    starts_at: z.string(),
    ends_at: z.string(),
    location_id: z.uuid(),
    instructor_id: z.uuid(),
    Location: place,
    Instructor: z.object({ first_name: z.string() }),
    is_featured: z.boolean(),
    is_special_event: z.boolean(),
    sync_with_eventbrite: z.boolean(),
    meeting_join_url: z.string().nullable().describe("the session's video meeting (Zoom) join URL; null when it has none"),
    meeting_summary: z
      .string()
      .nullable()
      .describe("the meeting's summary once it has taken place, when Zoom's meeting_summary is on; null until then"),
    enrolled_count: z.number().int(),
    seats_taken: z.number().int().describe('students plus their guests'),
    Activity: z.object({ name: z.string(), images: z.array(z.string()) }),
  }),
) {}

/** Sessions and their tags. Static paths (tags) come before `:event_id` so they are matched first. */
@ApiTags('events')
@Controller('admin')
@Auth()
export class EventsController {
  constructor(
    private readonly events: EventsService,
    private readonly tags: TagsService,
  ) {}

  @Get('events/tags')
  @ApiOperation({ summary: "The organization's custom tags" })
  @ZodResponse({ status: 200, type: TagListDto })
  async availableTags(@Ctx() ctx: RequestContext) {
    return { tags: await this.tags.listAvailable(ctx) };
  }

  @Post('events/tags')
  @ApiOperation({ summary: 'Create a tag; answers its tag_id' })
  @ZodResponse({ status: 201, type: TagOutDto })
  @ApiConflictResponse({ type: ErrorBodyDto })
  @ApiInvalidBody()
  createTag(@Ctx() ctx: RequestContext, @Body() body: TagDto) {
    return this.tags.create(ctx, body);
  }

  @Put('tags/:tag_id')
  @ApiOperation({
    summary: 'Rename or recolour a tag; system tags answer 400 "System tags cannot be modified"',
  })
  @ZodResponse({ status: 200, type: TagOutDto })
  @ApiNotFoundResponse({ type: ErrorBodyDto })
  @ApiConflictResponse({ type: ErrorBodyDto, description: 'Another tag of the organization has this name' })
  @ApiInvalidBody()
  updateTag(@Ctx() ctx: RequestContext, @Param('tag_id') id: string, @Body() body: TagDto) {
    return this.tags.update(ctx, id, body);
  }

  @Post('events')
  @ApiOperation({
    summary: 'Schedule a session: its days are wall-clock times in the location’s zone',
    description: 'Appointment courses are refused with 400: students book them at a time they pick.',
  })
  @ZodResponse({ status: 201, type: CreatedEventDto })
  @ApiNotFoundResponse({ type: ErrorBodyDto })
  @ApiInvalidBody()
  async create(@Ctx() ctx: RequestContext, @Body() body: EventScheduleDto) {
    return { event_id: (await this.events.create(ctx, body)).id };
  }

  @Get('events/:event_id')
  @ApiOperation({ summary: 'One session with its days, place and seats taken' })
  @ZodResponse({ status: 200, type: EventOutDto })
  @ApiNotFoundResponse({ type: ErrorBodyDto })
  get(@Ctx() ctx: RequestContext, @Param('event_id', UuidParamPipe) id: string) {
    return this.events.get(ctx, id);
  }

  @Put('events/:event_id')
  @ApiOperation({
    summary: 'Change price, capacity and internal description (future orders only)',
    description:
      'A paid session needs a price above 0 (spec 001 §5). A free session (price 0) may leave the price out or send 0, and stays free.',
  })
  @ZodResponse({ status: 200, type: EventOutDto })
  @ApiNotFoundResponse({ type: ErrorBodyDto })
  @ApiConflictResponse({ type: ErrorBodyDto, description: 'Capacity below the seats already taken' })
  @ApiInvalidBody()
  async update(
    @Ctx() ctx: RequestContext,
    @Param('event_id', UuidParamPipe) id: string,
    @Body() body: EventUpdateDto,
  ) {
    await this.events.update(ctx, id, body);
    return this.events.get(ctx, id);
  }

  @Delete('events/:event_id')
  @ApiOperation({ summary: 'Delete a session without enrolled students; answers where to go next' })
  @ZodResponse({ status: 200, type: DeletedEventDto })
  @ApiNotFoundResponse({ type: ErrorBodyDto })
  @ApiConflictResponse({ type: ErrorBodyDto, description: 'Students are enrolled' })
  async delete(@Ctx() ctx: RequestContext, @Param('event_id', UuidParamPipe) id: string) {
    const activityId = await this.events.delete(ctx, id);
    return { activity_id: activityId, redirect_to: `/admin/courses/${activityId}` };
  }

  @Get('events/:event_id/tags')
  @ApiOperation({ summary: 'The session’s tags: derived system tags first, then custom ones' })
  @ZodResponse({ status: 200, type: TagListDto })
  @ApiNotFoundResponse({ type: ErrorBodyDto })
  async eventTags(@Ctx() ctx: RequestContext, @Param('event_id', UuidParamPipe) id: string) {
    return { tags: await this.tags.forEvent(ctx, id) };
  }

  @Put('events/:event_id/tags')
  @ApiOperation({ summary: 'Replace the session’s custom tags (system tag ids are ignored)' })
  @ZodResponse({ status: 200, type: TagListDto })
  @ApiNotFoundResponse({ type: ErrorBodyDto })
  @ApiInvalidBody()
  async setEventTags(
    @Ctx() ctx: RequestContext,
    @Param('event_id', UuidParamPipe) id: string,
    @Body() body: EventTagsDto,
  ) {
    return { tags: await this.tags.setForEvent(ctx, id, body.tags) };
  }
}
