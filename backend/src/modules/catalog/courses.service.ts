import { EntityManager } from '@mikro-orm/postgresql';
import { Inject, Injectable } from '@nestjs/common';
import {
  categoryIdOf,
  CourseCreatePayload,
  CourseUpdatePayload,
  CheckoutFormField,
} from '@studio/contracts';
import { notFound } from '../../common/api-error';
import { RequestContext } from '../../common/request-context';
import { Organization } from '../organizations/organization.entity';
import { COURSE_SCHEDULE_READER, CourseScheduleReader, emptySummary } from './course-schedule.port';
import { Activity } from './entities/activity.entity';
import { ActivityImage } from './entities/activity-image.entity';
import { CheckoutForm } from './entities/checkout-form.entity';
import { Media } from './entities/media.entity';
import { mapCourse, mapCourseListItem } from './course.mapper';
import { MediaService } from './media.service';
import { ReferenceDataService } from './reference-data.service';

const COURSE_RELATIONS = ['images.media', 'location', 'instructor', 'requiredForm', 'requiredWaiver'] as const;

/** Courses (activities): create, read, list and edit, always inside the caller's organization. */
@Injectable()
export class CoursesService {
  constructor(
    private readonly em: EntityManager,
    private readonly reference: ReferenceDataService,
    private readonly media: MediaService,
    @Inject(COURSE_SCHEDULE_READER) private readonly schedule: CourseScheduleReader,
  ) {}

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
      const form = await this.resolveForm(ctx, input.required_form_id, input.checkoutFormFields, null);
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
        course.requiredForm = await this.resolveForm(
          ctx,
          input.required_form_id,
          input.checkoutFormFields ?? [],
          course.requiredForm ?? null,
        );
      }
      em.assign(course, {
        name: input.name,
        description: input.description,
        // Price and capacity here are the course's defaults; scheduled sessions keep their own.
        priceCents: input.price,
        priceType: 'standard',
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
      });
      this.replaceImages(course, images);
      await em.flush();
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
    return mapCourse(course, summary);
  }

  async list(ctx: RequestContext) {
    const courses = await this.em.find(
      Activity,
      { organization: ctx.organizationId },
      { populate: ['images.media', 'location'], orderBy: { createdAt: 'desc', id: 'asc' } },
    );
    const summaries = await this.schedule.summaries(ctx.organizationId, courses.map((c) => c.id), false);
    return courses.map((c) => mapCourseListItem(c, summaries.get(c.id) ?? emptySummary()));
  }

  private replaceImages(course: Activity, images: Media[]): void {
    const current = course.images.getItems().map((i) => i.media.id);
    if (current.length === images.length && current.every((id, i) => id === images[i].id)) return;
    course.images.removeAll();
    images.forEach((media, position) => course.images.add(this.em.create(ActivityImage, { activity: course, media, position })));
  }

  /** An existing form of the organization, or the builder's fields saved into the course's form. */
  private async resolveForm(
    ctx: RequestContext,
    formId: string | null | undefined,
    fields: CheckoutFormField[],
    current: CheckoutForm | null,
  ): Promise<CheckoutForm | null> {
    if (formId && fields.length === 0) {
      const form = await this.em.findOne(CheckoutForm, { id: formId, organization: ctx.organizationId });
      if (!form) throw notFound('Checkout form not found');
      return form;
    }
    if (fields.length === 0) return formId === null ? null : current;
    const form =
      current ??
      this.em.create(CheckoutForm, {
        organization: this.em.getReference(Organization, ctx.organizationId),
        fields: [],
        createdAt: new Date(),
        updatedAt: new Date(),
      });
    form.fields = fields;
    this.em.persist(form);
    return form;
  }
}
