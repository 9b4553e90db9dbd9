import { EntityManager } from '@mikro-orm/postgresql';
import { RequestContext } from '../common/request-context';
import { Order } from '../modules/orders/entities/order.entity';
import { Organization } from '../modules/organizations/organization.entity';
import { Enrollment, WaiverStatus } from '../modules/scheduling/entities/enrollment.entity';
import { Event } from '../modules/scheduling/entities/event.entity';
import { Tag } from '../modules/scheduling/entities/tag.entity';
import { Student } from '../modules/students/student.entity';

const FIRST = ['Ava', 'Noah', 'Mia', 'Liam', 'Zoe', 'Ethan', 'Isla', 'Mateo', 'Chloe', 'Kai', 'Nora', 'Omar', 'Priya', 'Leo', 'Hana', 'Diego', 'Ines', 'Felix', 'Maya', 'Jonas', 'Aiko', 'Sam', 'Lucia', 'Theo', 'Rosa', 'Idris', 'Elena', 'Finn', 'Yara', 'Hugo', 'Amara', 'Ben', 'Clara', 'Dev', 'Greta', 'Tomas'];
const LAST = ['Nguyen', 'Garcia', 'Kowalski', 'Haddad', 'Okoro', 'Schmidt', 'Rossi', 'Tanaka', 'Silva', 'Murphy', 'Larsen', 'Patel', 'Cohen', 'Dubois', 'Moreau', 'Ivanova', 'Kim', 'Alvarez'];

/** Seat counts per session, by course name and session order: one session is nearly full, one is Hot. */
const PLAN: Record<string, number[]> = {
  'Intro to Wheel Throwing': [6, 8, 6, 3, 2, 0],
  'Glassblowing: Paperweights': [5, 4, 2, 1],
  'Leather Card Wallet Workshop': [4, 1],
  'Coffee Cupping Evening': [11, 3],
};

/**
 * A few dozen students with orders and seats in past and future sessions, so the event drawer and
 * the enrollments grid look like a real studio's on first start.
 */
export async function seedDemoEnrollments(em: EntityManager, ctx: RequestContext): Promise<void> {
  const organization = em.getReference(Organization, ctx.organizationId);
  const students = FIRST.map((first, i) =>
    em.create(Student, {
      organization,
      firstName: first,
      lastName: LAST[i % LAST.length],
      email: `${first}.${LAST[i % LAST.length]}@example.com`.toLowerCase(),
      phone: i % 3 === 0 ? `+1 212 555 01${String(i).padStart(2, '0')}` : null,
      userId: i % 4 === 0 ? null : `user_${i}`,
      createdAt: new Date(Date.now() - (90 - i) * 86400000),
    }),
  );
  await em.flush();

  const events = await em.find(Event, { organization: ctx.organizationId }, { populate: ['activity'], orderBy: { startsAt: 'asc' } });
  const byCourse = new Map<string, Event[]>();
  for (const event of events) byCourse.set(event.activity.name, [...(byCourse.get(event.activity.name) ?? []), event]);

  let orderNumber = 1000;
  let next = 0;
  for (const [course, counts] of Object.entries(PLAN)) {
    const sessions = byCourse.get(course) ?? [];
    for (const [index, count] of counts.entries()) {
      const event = sessions[index];
      if (!event) continue;
      let seats = 0;
      for (let k = 0; k < count && seats < event.capacity; k++) {
        const student = students[next++ % students.length];
        const guests = k === 0 && count <= event.capacity - 2 ? 1 : 0;
        seats += 1 + guests;
        const order = em.create(Order, {
          organization,
          orderNumber: ++orderNumber,
          student,
          status: 'paid',
          // Seats bought in the studio's own checkout, or enrolled directly (free): both are workbench orders.
          source: 'workbench',
          totalCents: k % 5 === 4 ? 0 : event.priceCents * (1 + guests),
          eventId: event.id,
          description: event.name,
          createdAt: new Date(Math.min(Date.now() - (k + 1) * 3600000, event.startsAt.getTime() - (10 + k) * 86400000)),
        });
        // The enrollment points at the order by id only (another module's row): insert the order first.
        await em.flush();
        const waiverStatus: WaiverStatus = event.activity.requiredWaiver ? (k % 3 === 0 ? 'pending' : 'signed') : 'not_required';
        em.create(Enrollment, {
          organization,
          event,
          student,
          orderId: order.id,
          guestCount: guests,
          waiverStatus,
          createdAt: order.createdAt,
        });
      }
    }
  }
  await em.flush();
  await em.execute(
    `insert into order_counter (organization_id, last_number) values (?, ?)
     on conflict (organization_id) do update set last_number = excluded.last_number`,
    [ctx.organizationId, orderNumber],
  );

  const beginner = em.create(Tag, { organization, name: 'Beginner friendly', color: '#2f9e44' });
  const dateNight = em.create(Tag, { organization, name: 'Date night', color: '#d6336c' });
  await em.flush();
  const firstFuture = events.filter((e) => e.startsAt.getTime() > Date.now());
  for (const [i, event] of firstFuture.slice(0, 4).entries()) {
    await em.execute('insert into event_tag (event_id, tag_id) values (?, ?)', [event.id, i % 2 === 0 ? beginner.id : dateNight.id]);
  }
  if (firstFuture[0]) await em.execute('update event set is_featured = true where id = ?', [firstFuture[0].id]);
}
