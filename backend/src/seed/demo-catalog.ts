import { EntityManager } from '@mikro-orm/postgresql';
import { INestApplicationContext } from '@nestjs/common';
import { addDays } from 'date-fns/addDays';
import { format } from 'date-fns/format';
import { courseCreateSchema, CourseCreateInput, wallClockToUtc } from '@studio/contracts';
import { RequestContext } from '../common/request-context';
import { Activity } from '../modules/catalog/entities/activity.entity';
import { CoursesService } from '../modules/catalog/courses.service';
import { MediaService } from '../modules/catalog/media.service';
import { ReferenceDataService } from '../modules/catalog/reference-data.service';
import { EventDay } from '../modules/scheduling/entities/event-day.entity';
import { Event } from '../modules/scheduling/entities/event.entity';
import { gradientPng } from './demo-images';
import { seedDemoEnrollments } from './demo-enrollments';

type Rgb = [number, number, number];

interface DemoCourse {
  course: Omit<CourseCreateInput, 'images' | 'location_id' | 'instructor_id'>;
  colors: [Rgb, Rgb][];
  location: 0 | 1;
  instructor: 0 | 1 | 2;
  /** Days from today of each session's first day; negative days are past sessions. */
  sessions?: number[];
  startTime?: string;
}

const COURSES: DemoCourse[] = [
  {
    course: {
      name: 'Intro to Wheel Throwing',
      material: 'Ceramics',
      price: 6500,
      capacity: 8,
      level: 'Beginner',
      description: 'Center clay, pull walls and throw your first cylinders and bowls on the wheel. Clay, glazes and one firing included.',
      tools: 'Apron, towel, short nails',
      default_daily_mins: 120,
      default_start_time: '18:00',
      checkoutFormFields: [
        { id: 'name', type: 'name', label: 'Full name', required: true },
        { id: 'exp', type: 'radio', label: 'Have you used a wheel before?', options: [{ id: 'y', value: 'Yes' }, { id: 'n', value: 'No' }] },
      ],
    },
    colors: [
      [[196, 120, 84], [238, 203, 164]],
      [[150, 92, 70], [224, 180, 140]],
    ],
    location: 0,
    instructor: 0,
    sessions: [-14, -3, 2, 9, 16, 23],
    startTime: '18:00',
  },
  {
    course: {
      name: 'Glassblowing: Paperweights',
      material: 'Glass',
      price: 12000,
      capacity: 6,
      level: 'Beginner',
      description: 'Gather molten glass, add colour and shape a paperweight to take home after it anneals overnight.',
      default_daily_mins: 180,
      default_start_time: '10:00',
      // One set of answers per seat: each glassblower in a party picks a colour.
      formCollectionType: 'ticket',
      checkoutFormFields: [
        { id: 'colour', type: 'text', label: 'Colour you would like to work with', required: true },
      ],
      // Sent with the store's confirmation (and its calendar file).
      auto_email: 'Wear closed-toe shoes and cotton clothes: the hot shop is warm. Please arrive 10 minutes early.',
    },
    colors: [[[40, 110, 170], [140, 214, 230]]],
    location: 1,
    instructor: 1,
    sessions: [-7, 5, 12, 26],
    startTime: '10:00',
  },
  {
    course: {
      name: 'Leather Card Wallet Workshop',
      material: 'Leather',
      price: 8500,
      capacity: 10,
      level: 'Intermediate',
      description: 'Cut, stitch and burnish a vegetable-tanned card wallet over two evenings. All tools provided.',
      default_days: 2,
      default_days_apart: 7,
      default_daily_mins: 150,
      default_start_time: '18:30',
    },
    colors: [[[110, 70, 40], [200, 150, 100]]],
    location: 0,
    instructor: 2,
    sessions: [4, 18],
    startTime: '18:30',
  },
  {
    course: {
      name: 'Coffee Cupping Evening',
      material: 'Beverage',
      priceType: 'free',
      capacity: 12,
      level: 'Beginner',
      description: 'Taste four single-origin coffees side by side and learn how roasters score them. Free for members.',
      default_daily_mins: 90,
      default_start_time: '19:00',
    },
    colors: [[[70, 45, 30], [180, 130, 90]]],
    location: 1,
    instructor: 1,
    sessions: [6, 20],
    startTime: '19:00',
  },
  {
    course: {
      name: 'Private Pottery Lesson',
      material: 'Ceramics',
      price: 15000,
      capacity: 2,
      level: 'Beginner',
      description: 'One-to-one time on the wheel with an instructor, at a time that suits you. Bring a friend for free.',
      activity_type: 'appointment',
      single_party: true,
      buffer_before_mins: 15,
      buffer_after_mins: 30,
      min_notice_mins: 1440,
      start_time_increments_mins: 30,
      duration_mins: 90,
    },
    colors: [[[170, 110, 90], [240, 220, 200]]],
    location: 0,
    instructor: 0,
  },
  {
    course: {
      name: 'Woodturning One-to-One',
      material: 'Wood',
      price: 18000,
      capacity: 2,
      level: 'Advanced',
      description: 'Turn a bowl from a green log with a master turner. Sharpening, safety and finishing included.',
      activity_type: 'appointment',
      single_party: true,
      buffer_before_mins: 30,
      buffer_after_mins: 30,
      min_notice_mins: 2880,
      start_time_increments_mins: 60,
      duration_mins: 180,
    },
    colors: [[[120, 85, 50], [220, 190, 140]]],
    location: 1,
    instructor: 2,
  },
];

/** The demo studio's catalog: locations, instructors, a waiver, courses of both types with pictures and sessions. */
export async function seedDemoCatalog(app: INestApplicationContext, ctx: RequestContext, timezone: string): Promise<void> {
  const reference = app.get(ReferenceDataService);
  const media = app.get(MediaService);
  const courses = app.get(CoursesService);
  const em = app.get(EntityManager);

  const locations = [
    await reference.createLocation(ctx, { name: 'Main Studio', address: '214 Kent Ave, Brooklyn, NY 11249', timezone, online: false }),
    await reference.createLocation(ctx, { name: 'Riverside Annex', address: '88 Water St, Beacon, NY 12508', timezone, online: false }),
  ];
  const instructors = [
    await reference.createInstructor(ctx, { first_name: 'Mira', last_name: 'Okafor', photo_url: null }),
    await reference.createInstructor(ctx, { first_name: 'Jonah', last_name: 'Reyes', photo_url: null }),
    await reference.createInstructor(ctx, { first_name: 'Lena', last_name: 'Park', photo_url: null }),
  ];
  const waiver = await reference.createWaiver(ctx, {
    name: 'Studio safety waiver',
    body: 'I understand that studio work involves heat, sharp tools and machinery, and I will follow the instructor’s directions.',
    document_url: null,
  });

  for (const [index, demo] of COURSES.entries()) {
    const images: string[] = [];
    for (const [i, [from, to]] of demo.colors.entries()) {
      const bytes = gradientPng(480, 320, from, to);
      const uploaded = await media.upload(ctx, { buffer: bytes, size: bytes.length, originalname: `demo-${index}-${i}.png` });
      images.push(uploaded.url);
    }
    const payload = courseCreateSchema.parse({
      ...demo.course,
      images,
      location_id: locations[demo.location].id,
      instructor_id: instructors[demo.instructor].id,
      selected_waiver: index === 1 ? waiver.id : null,
    });
    const course = await courses.create(ctx, payload);
    for (const offset of demo.sessions ?? []) await addSession(em, course, offset, demo.startTime ?? '18:00', timezone);
  }
  await seedDemoEnrollments(em, ctx);
}

/** A session of the course, `offset` days from today, with the course's default number of days. */
async function addSession(em: EntityManager, course: Activity, offset: number, time: string, timezone: string) {
  const days = Array.from({ length: course.defaultDays }, (_, i) => {
    const date = format(addDays(new Date(), offset + i * course.defaultDaysApart), 'yyyy-MM-dd');
    const startsAt = wallClockToUtc(date, time, timezone)!;
    return { date, startsAt, endsAt: new Date(startsAt.getTime() + course.defaultDailyMins * 60000) };
  });
  const event = em.create(Event, {
    organization: course.organization,
    activity: course,
    name: course.name,
    capacity: course.capacity,
    priceCents: course.priceCents,
    location: course.location,
    instructor: course.instructor,
    startsAt: days[0].startsAt,
    endsAt: days[days.length - 1].endsAt,
  });
  days.forEach((day, position) =>
    em.create(EventDay, {
      event,
      position,
      startDate: day.date,
      startTime: time,
      durationMins: course.defaultDailyMins,
      startsAt: day.startsAt,
      endsAt: day.endsAt,
    }),
  );
  await em.flush();
}
