import { EntityManager } from '@mikro-orm/postgresql';
import { Injectable } from '@nestjs/common';
import type { InstructorInput, LocationInput, WaiverInput } from '@studio/contracts';
import { availabilitySchema, DOCUMENT_URL_PATTERN, instructorSchema, locationSchema, MEDIA_URL_PATTERN, waiverSchema } from '@studio/contracts';
import { z } from 'zod';
import { notFound } from '../../common/api-error';
import { RequestContext } from '../../common/request-context';
import { Organization } from '../organizations/organization.entity';
import { Instructor } from './entities/instructor.entity';
import { Location } from './entities/location.entity';
import { WaiverTemplate } from './entities/waiver-template.entity';
import { MediaService } from './media.service';

/** Locations, instructors and waiver templates of the caller's organization. */
@Injectable()
export class ReferenceDataService {
  constructor(
    private readonly em: EntityManager,
    private readonly media: MediaService,
  ) {}

  listLocations(ctx: RequestContext) {
    return this.em.find(Location, { organization: ctx.organizationId }, { orderBy: { name: 'asc', address: 'asc', id: 'asc' } });
  }

  async requireLocation(ctx: RequestContext, id: string): Promise<Location> {
    const location = await this.em.findOne(Location, { id, organization: ctx.organizationId });
    if (!location) throw notFound('Location not found');
    return location;
  }

  async createLocation(ctx: RequestContext, input: z.output<typeof locationSchema>): Promise<Location> {
    const location = this.em.create(Location, {
      ...input,
      organization: this.em.getReference(Organization, ctx.organizationId),
      createdAt: new Date(),
    });
    await this.em.persistAndFlush(location);
    return location;
  }

  async updateLocation(ctx: RequestContext, id: string, input: z.output<typeof locationSchema>): Promise<Location> {
    const location = await this.requireLocation(ctx, id);
    this.em.assign(location, input);
    await this.em.flush();
    return location;
  }

  listInstructors(ctx: RequestContext) {
    return this.em.find(Instructor, { organization: ctx.organizationId }, { orderBy: { firstName: 'asc', lastName: 'asc', id: 'asc' } });
  }

  async requireInstructor(ctx: RequestContext, id: string): Promise<Instructor> {
    const instructor = await this.em.findOne(Instructor, { id, organization: ctx.organizationId });
    if (!instructor) throw notFound('Instructor not found');
    return instructor;
  }

  private async instructorFields(ctx: RequestContext, input: z.output<typeof instructorSchema>) {
    // A photo must be an image uploaded by this organization.
    if (input.photo_url) await this.media.requireByUrls(ctx, [input.photo_url]);
    return { firstName: input.first_name, lastName: input.last_name, photoUrl: input.photo_url || null };
  }

  async createInstructor(ctx: RequestContext, input: z.output<typeof instructorSchema>): Promise<Instructor> {
    const instructor = this.em.create(Instructor, {
      ...(await this.instructorFields(ctx, input)),
      organization: this.em.getReference(Organization, ctx.organizationId),
      createdAt: new Date(),
    });
    await this.em.persistAndFlush(instructor);
    return instructor;
  }

  /** The instructor's weekly hours and date overrides (none set: every day closed, no override). */
  async instructorAvailability(ctx: RequestContext, id: string): Promise<Availability> {
    return readAvailability((await this.requireInstructor(ctx, id)).availability);
  }

  async setInstructorAvailability(ctx: RequestContext, id: string, input: z.output<typeof availabilitySchema>): Promise<Availability> {
    const instructor = await this.requireInstructor(ctx, id);
    instructor.availability = readAvailability(input);
    await this.em.flush();
    return readAvailability(instructor.availability);
  }

  async updateInstructor(ctx: RequestContext, id: string, input: z.output<typeof instructorSchema>): Promise<Instructor> {
    const instructor = await this.requireInstructor(ctx, id);
    this.em.assign(instructor, await this.instructorFields(ctx, input));
    await this.em.flush();
    return instructor;
  }

  async listWaivers(ctx: RequestContext, page: number, limit: number) {
    const [waivers, total] = await this.em.findAndCount(
      WaiverTemplate,
      { organization: ctx.organizationId },
      { orderBy: { name: 'asc', id: 'asc' }, limit, offset: (page - 1) * limit },
    );
    return { waivers, total };
  }

  async requireWaiver(ctx: RequestContext, id: string): Promise<WaiverTemplate> {
    const waiver = await this.em.findOne(WaiverTemplate, { id, organization: ctx.organizationId });
    if (!waiver) throw notFound('Waiver not found');
    return waiver;
  }

  async createWaiver(ctx: RequestContext, input: z.output<typeof waiverSchema>): Promise<WaiverTemplate> {
    // An uploaded document must be this organization's (an https:// link is checked by the schema).
    if (input.document_url && MEDIA_URL_PATTERN.test(input.document_url)) await this.media.requireByUrls(ctx, [input.document_url]);
    if (input.document_url && DOCUMENT_URL_PATTERN.test(input.document_url)) await this.media.requireDocument(ctx, input.document_url);
    const waiver = this.em.create(WaiverTemplate, {
      name: input.name,
      body: input.body,
      documentUrl: input.document_url ?? null,
      organization: this.em.getReference(Organization, ctx.organizationId),
      createdAt: new Date(),
    });
    await this.em.persistAndFlush(waiver);
    return waiver;
  }
}

export type { InstructorInput, LocationInput, WaiverInput };
type Availability = z.output<typeof availabilitySchema>;

/** Stored availability, read back through its schema (every weekday present, sorted overrides); none or unreadable: all closed. */
export function readAvailability(stored: unknown): Availability {
  const parsed = availabilitySchema.safeParse(stored ?? { weekly: {} });
  const value = parsed.success ? parsed.data : availabilitySchema.parse({ weekly: {} });
  return { weekly: value.weekly, overrides: [...value.overrides].sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : 0)) };
}

export const mapLocation = (l: Location) => ({
  location_id: l.id,
  name: l.name,
  address: l.address,
  timezone: l.timezone,
  online: l.online,
});
export const mapInstructor = (i: Instructor) => ({
  instructor_id: i.id,
  first_name: i.firstName,
  last_name: i.lastName,
  photo_url: i.photoUrl ?? null,
});
export const mapWaiverSummary = (w: WaiverTemplate) => ({ template_id: w.id, name: w.name });
