import { UniqueConstraintViolationException } from '@mikro-orm/core';
import { EntityManager } from '@mikro-orm/postgresql';
import { HttpStatus, Injectable } from '@nestjs/common';
import {
  HOT_TAG_MIN_ENROLLMENTS,
  isSystemTagId,
  SCHEDULING_MESSAGES as M,
  SYSTEM_TAGS,
  tagSchema,
} from '@studio/contracts';
import { z } from 'zod';
import { ApiError, notFound } from '../../common/api-error';
import { RequestContext } from '../../common/request-context';
import { Organization } from '../organizations/organization.entity';
import { Event } from './entities/event.entity';
import { Tag } from './entities/tag.entity';
import { EventsService } from './events.service';
import { seatsTaken } from './seats';
import { isUuid } from '../../common/uuid-param.pipe';

type TagInput = z.output<typeof tagSchema>;

export const mapTag = (t: Tag) => ({
  tag_id: t.id,
  name: t.name,
  color: t.color,
  icon: t.icon ?? null,
  system: false,
});
const systemTag = (t: (typeof SYSTEM_TAGS)[keyof typeof SYSTEM_TAGS]) => ({ ...t, system: true });

/** Custom tags on sessions, and the derived system tags Featured, Special and Hot (spec 001 §4). */
@Injectable()
export class TagsService {
  constructor(
    private readonly em: EntityManager,
    private readonly events: EventsService,
  ) {}

  async listAvailable(ctx: RequestContext) {
    const tags = await this.em.find(
      Tag,
      { organization: ctx.organizationId },
      { orderBy: { name: 'asc', id: 'asc' } },
    );
    return tags.map(mapTag);
  }

  async create(ctx: RequestContext, input: TagInput) {
    const tag = this.em.create(Tag, {
      organization: this.em.getReference(Organization, ctx.organizationId),
      name: input.name,
      color: input.color,
      icon: input.icon ?? null,
    });
    try {
      await this.em.persistAndFlush(tag);
    } catch (error) {
      if (error instanceof UniqueConstraintViolationException)
        throw new ApiError(HttpStatus.CONFLICT, M.tagNameTaken, { name: M.tagNameTaken });
      throw error;
    }
    return mapTag(tag);
  }

  async update(ctx: RequestContext, id: string, input: TagInput) {
    if (isSystemTagId(id)) throw new ApiError(HttpStatus.BAD_REQUEST, M.systemTagsReadOnly);
    if (!isUuid(id)) throw notFound('Tag not found');
    const tag = await this.em.findOne(Tag, { id, organization: ctx.organizationId });
    if (!tag) throw notFound('Tag not found');
    this.em.assign(tag, {
      name: input.name,
      color: input.color,
      ...(input.icon !== undefined && { icon: input.icon }),
    });
    try {
      await this.em.flush();
    } catch (error) {
      if (error instanceof UniqueConstraintViolationException)
        throw new ApiError(HttpStatus.CONFLICT, M.tagNameTaken, { name: M.tagNameTaken });
      throw error;
    }
    return mapTag(tag);
  }

  /** The session's system tags first (derived, read-only), then its custom tags. */
  async forEvent(ctx: RequestContext, eventId: string) {
    const event = await this.events.requireEvent(ctx, eventId);
    const students = (await seatsTaken(this.em, [event.id])).get(event.id)?.students ?? 0;
    const system = [
      ...(event.isFeatured ? [systemTag(SYSTEM_TAGS.featured)] : []),
      ...(event.isSpecialEvent ? [systemTag(SYSTEM_TAGS.special)] : []),
      ...(students >= HOT_TAG_MIN_ENROLLMENTS ? [systemTag(SYSTEM_TAGS.hot)] : []),
    ];
    const rows = await this.em.execute<{ tag_id: string }[]>(
      'select tag_id from event_tag where event_id = ?',
      [event.id],
    );
    const custom = rows.length
      ? await this.em.find(
          Tag,
          { id: { $in: rows.map((r) => r.tag_id) }, organization: ctx.organizationId },
          { orderBy: { name: 'asc' } },
        )
      : [];
    return [...system, ...custom.map(mapTag)];
  }

  /** Replaces the session's custom tags. System tag ids are ignored: they are not the admin's to set. */
  async setForEvent(ctx: RequestContext, eventId: string, tagIds: string[]) {
    const event = await this.events.requireEvent(ctx, eventId);
    const custom = [...new Set(tagIds.filter((id) => !isSystemTagId(id)))];
    if (custom.some((id) => !isUuid(id)))
      throw new ApiError(HttpStatus.BAD_REQUEST, M.invalidTagData, { tags: M.invalidTagData });
    const found = custom.length
      ? await this.em.count(Tag, { id: { $in: custom }, organization: ctx.organizationId })
      : 0;
    if (found !== custom.length) throw notFound('Tag not found');
    await this.em.transactional(async (em) => {
      // The session row's lock serialises concurrent replacements: each deletes and inserts in turn.
      await em.execute('select id from event where id = ? and organization_id = ? for update', [
        event.id,
        ctx.organizationId,
      ]);
      await em.execute('delete from event_tag where event_id = ?', [event.id]);
      for (const tagId of custom)
        await em.execute('insert into event_tag (event_id, tag_id) values (?, ?)', [event.id, tagId]);
    });
    return this.forEvent(ctx, eventId);
  }
}

export type { Event };
