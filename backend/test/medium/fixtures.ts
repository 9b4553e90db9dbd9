/*
 * Real rows for the medium tier (medium.ts): an organization with a location, an instructor and a
 * course, its students, sessions and seats, written with the entities (as their own modules write
 * them) so that the rows under test name rows that exist.
 */
import { EntityManager } from '@mikro-orm/postgresql';
import { randomBytes } from 'node:crypto';
import { Activity } from '../../src/modules/catalog/entities/activity.entity';
import { Instructor } from '../../src/modules/catalog/entities/instructor.entity';
import { Location } from '../../src/modules/catalog/entities/location.entity';
import { User } from '../../src/modules/identity/user.entity';
import { Order } from '../../src/modules/orders/entities/order.entity';
import { OrderRefund } from '../../src/modules/orders/entities/order-refund.entity';
import { Organization } from '../../src/modules/organizations/organization.entity';
import { Enrollment } from '../../src/modules/scheduling/entities/enrollment.entity';
import { Event } from '../../src/modules/scheduling/entities/event.entity';
import { Student } from '../../src/modules/students/student.entity';
import type { Medium } from './medium';

const tag = () => randomBytes(4).toString('hex');

export interface Studio {
  organization: Organization;
  location: Location;
  instructor: Instructor;
  course: Activity;
}

export function studio(m: Medium, name = 'Medium Studio'): Promise<Studio> {
  return m.run(async (em) => {
    // Built with `new` so that the entities' own defaults (time zone, reminders, created_at) apply.
    const organization = Object.assign(new Organization(), { name, slug: `medium-${tag()}` });
    const location = Object.assign(new Location(), { organization, name: 'Main room', address: '1 Clay Street', timezone: 'America/New_York' });
    const instructor = Object.assign(new Instructor(), { organization, firstName: 'Ann', lastName: 'Potter' });
    em.persist([organization, location, instructor]);
    const course = Object.assign(new Activity(), {
      organization,
      name: 'Wheel throwing',
      description: 'Six weeks at the wheel.',
      categoryId: 1,
      level: 'Beginner',
      capacity: 10,
      location,
      instructor,
      cancelPolicyId: 1,
      reschedulePolicyId: 1,
    });
    em.persist(course);
    await em.flush();
    return { organization, location, instructor, course };
  });
}

export function student(m: Medium, s: Studio, firstName = 'Ada'): Promise<Student> {
  return m.run(async (em) => {
    const row = em.create(Student, { organization: em.getReference(Organization, s.organization.id), firstName, lastName: 'Lovelace', email: `${firstName.toLowerCase()}.${tag()}@example.test` });
    await em.flush();
    return row;
  });
}

/** A session of the studio's course, `daysFromNow` ahead, two hours long. */
export function session(m: Medium, s: Studio, { daysFromNow = 3, capacity = 10 } = {}): Promise<Event> {
  return m.run(async (em: EntityManager) => {
    const startsAt = new Date(m.clock.nowMs() + daysFromNow * 86_400_000);
    const row = em.create(Event, {
      organization: em.getReference(Organization, s.organization.id),
      activity: em.getReference(Activity, s.course.id),
      name: s.course.name,
      capacity,
      priceCents: 4000,
      location: em.getReference(Location, s.location.id),
      instructor: em.getReference(Instructor, s.instructor.id),
      startsAt,
      endsAt: new Date(startsAt.getTime() + 2 * 3_600_000),
    });
    await em.flush();
    return row;
  });
}

/** A seat of `studentId` on `eventId`, as Add student books it (no order). */
export function seat(m: Medium, s: Studio, eventId: string, studentId: string): Promise<Enrollment> {
  return m.run(async (em) => {
    const row = em.create(Enrollment, {
      organization: em.getReference(Organization, s.organization.id),
      event: em.getReference(Event, eventId),
      student: em.getReference(Student, studentId),
    });
    await em.flush();
    return row;
  });
}

/** An owner of the studio (a real user row for the ledgers' "who"); never signs in here. */
export function owner(m: Medium, s: Studio): Promise<User> {
  return m.run(async (em) => {
    const user = Object.assign(new User(), {
      email: `owner.${tag()}@example.test`,
      passwordHash: 'not-a-real-hash',
      role: 'owner' as const,
      organization: em.getReference(Organization, s.organization.id),
    });
    em.persist(user);
    await em.flush();
    return user;
  });
}

/** A store order of the student's, of `totalCents`, in `status` (its number the next of the studio's). */
export function order(m: Medium, s: Studio, studentId: string, { totalCents = 10_000, status = 'paid' as Order['status'] } = {}): Promise<Order> {
  return m.run(async (em) => {
    const [{ n }] = await em.execute<{ n: number }[]>(`select coalesce(max(order_number), 1000) + 1 as n from customer_order where organization_id = ?`, [s.organization.id]);
    const row = em.create(Order, {
      organization: em.getReference(Organization, s.organization.id),
      student: em.getReference(Student, studentId),
      orderNumber: Number(n),
      status,
      source: 'store',
      totalCents,
    });
    await em.flush();
    return row;
  });
}

/** A refund row of the order, succeeded (as the refunds ledger records a refund the provider made). */
export function refund(m: Medium, o: Order, amountCents: number): Promise<OrderRefund> {
  return m.run(async (em) => {
    const row = em.create(OrderRefund, { orderId: o.id, organizationId: o.organization.id, amountCents, status: 'succeeded' });
    await em.flush();
    return row;
  });
}
