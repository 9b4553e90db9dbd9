import { EntityManager } from '@mikro-orm/postgresql';
import { Inject, Injectable } from '@nestjs/common';
import {
  categoryIdOf,
  CourseCreatePayload,
  CourseUpdatePayload,
  CheckoutFormField,
  CourseListQuery,
  CourseSortField,
} from '@studio/contracts';
import { notFound } from '../../common/api-error';
import { RequestContext } from '../../common/request-context';
import { Organization } from '../organizations/organization.entity';
import { likeEscape } from '../../common/like-escape';
import { COURSE_SCHEDULE_READER, CourseScheduleReader, emptySummary } from './course-schedule.port';
import { Activity } from './entities/activity.entity';
import { ActivityImage } from './entities/activity-image.entity';
import { CheckoutForm } from './entities/checkout-form.entity';
import { Media } from './entities/media.entity';
import { isListed, mapCourse } from './course.mapper';
import { MediaService } from './media.service';
import { ReferenceDataService } from './reference-data.service';
import { CourseEvents } from './course-events';
import { courseSyncMappings } from './course-sync.query';

/**
 * ORDER BY of each sort field of the Courses list: a fixed map, so user input never reaches the SQL
 * text; each ends with the id so pages never overlap, and matches an index of the catalog migrations.
 */
const COURSE_SORT_SQL: Record<CourseSortField, (d: 'asc' | 'desc') => string> = {
  created_at: (d) => `a.created_at ${d}, a.id ${d}`,
  name: (d) => `lower(a.name) ${d}, a.id ${d}`,
  unit_price: (d) => `a.price_cents ${d}, a.id ${d}`,
  capacity: (d) => `a.capacity ${d}, a.id ${d}`,
};
/** Newest first by default; names, prices and capacities read smallest first. */
const COURSE_SORT_DEFAULT_ORDER: Record<CourseSortField, 'asc' | 'desc'> = {
  created_at: 'desc',
  name: 'asc',
  unit_price: 'asc',
  capacity: 'asc',
};

type CourseListRow = {
  id: string;
  name: string;
  activity_type: Activity['activityType'];
  status: Activity['status'];
  price_type: Activity['priceType'];
  price_cents: number;
  capacity: number;
  created_at: Date;
  location_address: string;
  image: string | null;
};

const COURSE_RELATIONS = ['images.media', 'location', 'instructor', 'requiredForm', 'requiredWaiver'] as const;

/** Courses (activities): create, read, list and edit, always inside the caller's organization. */
@Injectable()
export class CoursesService {
  constructor(
    private readonly em: EntityManager,
    private readonly reference: ReferenceDataService,
    private readonly media: MediaService,
    @Inject(COURSE_SCHEDULE_READER) private readonly schedule: CourseScheduleReader,
    private readonly courseEvents: CourseEvents,
  ) {}

  /** Which of `ids` are not courses of the organization (a product's coverage names its own courses only). */
  async unknownCourseIds(organizationId: string, ids: readonly string[]): Promise<string[]> {
    if (ids.length === 0) return [];
    const found = await this.em.find(Activity, { id: { $in: [...ids] }, organization: organizationId }, { fields: ['id'] });
    const known = new Set(found.map((c) => c.id));
    return ids.filter((id) => !known.has(id));
  }

  /** The course, or 404 when it does not exist in the caller's organization. */
  async requireCourse(ctx: RequestContext, id: string): Promise<Activity> {
    const course = await this.em.findOne(
      Activity,
      { id, organization: ctx.organizationId },
      { populate: [...COURSE_RELATIONS] },
    );
    if (!course) throw notFound('Course not found');
    return course;
  }

  async create(ctx: RequestContext, input: CourseCreatePayload): Promise<Activity> {
    return this.em.transactional(async (em) => {
      const [location, instructor, images] = await Promise.all([
        this.reference.requireLocation(ctx, input.location_id),
        this.reference.requireInstructor(ctx, input.instructor_id),
        this.media.requireByUrls(ctx, input.images),
      ]);
      const waiver = input.selected_waiver ? await this.reference.requireWaiver(ctx, input.selected_waiver) : null;
      const form = await this.resolveForm(ctx, null, input.required_form_id, input.checkoutFormFields);
      const course = em.create(Activity, {
        organization: em.getReference(Organization, ctx.organizationId),
        name: input.name,
        description: input.description,
        categoryId: categoryIdOf(input.material),
        level: input.level,
        priceType: input.priceType,
        priceCents: input.priceType === 'free' ? 0 : (input.price ?? 0),
        capacity: input.capacity,
        tools: input.tools,
        location,
        instructor,
        cancelPolicyId: input.cancel_policy_id,
        reschedulePolicyId: input.reschedule_policy_id,
        activityType: input.activity_type,
        singleParty: input.single_party,
        status: 'listed',
        formCollectionType: input.formCollectionType,
        requiredForm: form,
        requiredWaiver: waiver,
        bufferBeforeMins: input.buffer_before_mins,
        bufferAfterMins: input.buffer_after_mins,
        minNoticeMins: input.min_notice_mins,
        startTimeIncrementsMins: input.start_time_increments_mins,
        durationMins: input.duration_mins,
        bookingWindowDays: input.booking_window_days,
        availability: input.activity_type === 'appointment' && input.availability ? input.availability : null,
        autoEmail: input.auto_email,
        defaultDays: input.default_days,
        defaultDaysApart: input.default_days_apart,
        defaultDailyMins: input.default_daily_mins,
        defaultStartTime: input.default_start_time,
        syncWithEventbrite: false,
        createdAt: new Date(),
        updatedAt: new Date(),
      });
      this.replaceImages(course, images);
      await em.flush();
      return course;
    });
  }

  async update(ctx: RequestContext, id: string, input: CourseUpdatePayload): Promise<Activity> {
    return this.updateInTransaction(ctx, id, input);
  }

  private async updateInTransaction(ctx: RequestContext, id: string, input: CourseUpdatePayload): Promise<Activity> {
    return this.em.transactional(async (em) => {
      const course = await this.requireCourse(ctx, id);
      const [location, instructor, images] = await Promise.all([
        this.reference.requireLocation(ctx, input.location_id),
        this.reference.requireInstructor(ctx, input.instructor_id),
        this.media.requireByUrls(ctx, input.images),
      ]);
      if (input.required_waiver_id !== undefined) {
        course.requiredWaiver = input.required_waiver_id ? await this.reference.requireWaiver(ctx, input.required_waiver_id) : null;
      }
      if (input.checkoutFormFields !== undefined || input.required_form_id !== undefined) {
        course.requiredForm = await this.resolveForm(ctx, course, input.required_form_id, input.checkoutFormFields);
      }
      em.assign(course, {
        name: input.name,
        description: input.description,
        // Price and capacity here are the course's defaults; scheduled sessions keep their own.
        // A free course has no price: it stays at 0 whatever was sent.
        priceType: input.priceType,
        priceCents: input.priceType === 'free' ? 0 : (input.price ?? 0),
        capacity: input.capacity,
        level: input.level,
        categoryId: input.category_id,
        location,
        instructor,
        syncWithEventbrite: input.sync_with_eventbrite,
        eventbriteEventId: input.sync_with_eventbrite ? (input.eventbrite_event_id ?? null) : null,
        ...(input.autoEmail !== undefined && { autoEmail: input.autoEmail }),
        ...(input.formCollectionType !== undefined && { formCollectionType: input.formCollectionType }),
        ...(input.default_days !== undefined && { defaultDays: input.default_days }),
        ...(input.default_days_apart !== undefined && { defaultDaysApart: input.default_days_apart }),
        ...(input.default_daily_mins !== undefined && { defaultDailyMins: input.default_daily_mins }),
        ...(input.default_start_time !== undefined && { defaultStartTime: input.default_start_time }),
        ...(input.buffer_before_mins !== undefined && { bufferBeforeMins: input.buffer_before_mins }),
        ...(input.buffer_after_mins !== undefined && { bufferAfterMins: input.buffer_after_mins }),
        ...(input.min_notice_mins !== undefined && { minNoticeMins: input.min_notice_mins }),
        ...(input.start_time_increments_mins !== undefined && { startTimeIncrementsMins: input.start_time_increments_mins }),
        ...(input.duration_mins !== undefined && { durationMins: input.duration_mins }),
        ...(input.booking_window_days !== undefined && { bookingWindowDays: input.booking_window_days }),
        // Hours of its own apply to an appointment course only; a scheduled course's are ignored.
        ...(input.availability !== undefined && course.activityType === 'appointment' && { availability: input.availability }),
      });
      this.replaceImages(course, images);
      await em.flush();
      // With the change (the outbox): the sync module links the course to its Eventbrite event.
      await this.courseEvents.publish(em as EntityManager, {
        type: 'course.updated',
        organizationId: ctx.organizationId,
        activityId: course.id,
        syncWithEventbrite: course.syncWithEventbrite,
        eventbriteEventId: course.eventbriteEventId ?? null,
      });
      return course;
    });
  }

  /** The images-only save of the edit drawer, sent at once on each upload or delete. */
  async updateImages(ctx: RequestContext, id: string, urls: string[]): Promise<Activity> {
    return this.em.transactional(async (em) => {
      const course = await this.requireCourse(ctx, id);
      this.replaceImages(course, await this.media.requireByUrls(ctx, urls));
      await em.flush();
      return course;
    });
  }

  async get(ctx: RequestContext, id: string) {
    const course = await this.requireCourse(ctx, id);
    const summary = (await this.schedule.summaries(ctx.organizationId, [course.id], true)).get(course.id) ?? emptySummary();
    return { ...mapCourse(course, summary), syncMappings: await courseSyncMappings(this.em, ctx.organizationId, course.id) };
  }

  /**
   * One page of the organization's courses: search (name), sort and paging in SQL, on indexes (a
   * trigram index for the name search, b-tree indexes for each sort). Only the page's rows are loaded.
   */
  async list(ctx: RequestContext, query: CourseListQuery) {
    const clauses = ['a.organization_id = ?'];
    const params: unknown[] = [ctx.organizationId];
    const term = query.search?.toLowerCase();
    if (term) {
      clauses.push('lower(a.name) like ?');
      params.push(`%${likeEscape(term)}%`);
    }
    const where = clauses.join(' and ');
    const direction = query.sortOrder ?? COURSE_SORT_DEFAULT_ORDER[query.sortField];
    const connection = this.em.getConnection();
    // The page's rows with their first image and address in one statement (catalog's own tables),
    // shaped straight into the answer; then the sessions' summary through the scheduling port.
    const [rows, [count]] = await Promise.all([
      connection.execute<CourseListRow[]>(
        `select a.id, a.name, a.activity_type, a.status, a.price_type, a.price_cents, a.capacity, a.created_at,
                l.address as location_address,
                (select m.url from activity_image ai join media m on m.id = ai.media_id
                  where ai.activity_id = a.id order by ai.position limit 1) as image
           from activity a join location l on l.id = a.location_id
          where ${where} order by ${COURSE_SORT_SQL[query.sortField](direction)} limit ? offset ?`,
        [...params, query.limit, (query.page - 1) * query.limit],
      ),
      connection.execute<{ total: string }[]>(`select count(*) as total from activity a where ${where}`, params),
    ]);
    const summaries = await this.schedule.summaries(
      ctx.organizationId,
      rows.map((r) => r.id),
      false,
    );
    return {
      items: rows.map((r) => {
        const summary = summaries.get(r.id) ?? emptySummary();
        return {
          activity_id: r.id,
          name: r.name,
          activity_type: r.activity_type,
          listed: isListed({ activityType: r.activity_type, status: r.status }, summary),
          image: r.image,
          price_type: r.price_type,
          unit_price: Number(r.price_cents),
          capacity: Number(r.capacity),
          location_address: r.location_address,
          next_session_at: summary.next_start ? summary.next_start.toISOString() : null,
          session_count: summary.event_count,
          created_at: new Date(r.created_at).toISOString(),
        };
      }),
      total: Number(count.total),
    };
  }

  private replaceImages(course: Activity, images: Media[]): void {
    const current = course.images.getItems().map((i) => i.media.id);
    if (current.length === images.length && current.every((id, i) => id === images[i].id)) return;
    course.images.removeAll();
    images.forEach((media, position) => course.images.add(this.em.create(ActivityImage, { activity: course, media, position })));
  }

  /**
   * The course's checkout form after a save.
   * - Fields sent and not empty: they are saved into the course's own form. A form that another
   *   course also uses is copied first (copy on write), so no other course changes.
   * - `required_form_id` naming another form of the organization (and no fields): that form is attached.
   * - An empty field list otherwise removes the form; `required_form_id: null` too.
   * - Nothing sent about the form: it stays.
   */
  private async resolveForm(
    ctx: RequestContext,
    course: Activity | null,
    formId: string | null | undefined,
    fields: CheckoutFormField[] | undefined,
  ): Promise<CheckoutForm | null> {
    const current = course?.requiredForm ?? null;
    if (fields && fields.length > 0) {
      const own = current && !(await this.isUsedByAnotherCourse(current, course)) ? current : this.newForm(ctx);
      own.fields = fields;
      this.em.persist(own);
      return own;
    }
    if (formId && formId !== current?.id) {
      const form = await this.em.findOne(CheckoutForm, { id: formId, organization: ctx.organizationId });
      if (!form) throw notFound('Checkout form not found');
      return form;
    }
    if (fields !== undefined || formId === null) return null;
    return current;
  }

  private async isUsedByAnotherCourse(form: CheckoutForm, course: Activity | null): Promise<boolean> {
    const others = await this.em.count(Activity, {
      requiredForm: form.id,
      ...(course ? { id: { $ne: course.id } } : {}),
    });
    return others > 0;
  }

  private newForm(ctx: RequestContext): CheckoutForm {
    return this.em.create(CheckoutForm, {
      organization: this.em.getReference(Organization, ctx.organizationId),
      fields: [],
      createdAt: new Date(),
      updatedAt: new Date(),
    });
  }
}
