import { UniqueConstraintViolationException } from '@mikro-orm/core';
import { EntityManager } from '@mikro-orm/postgresql';
import { encodeStudentCursor, STUDENT_MESSAGES as M, StudentCreatePayload, type StudentCursor } from '@studio/contracts';
import { HttpStatus, Injectable } from '@nestjs/common';
import { ApiError, notFound } from '../../common/api-error';
import { likeEscape } from '../../common/like-escape';
import { RequestContext } from '../../common/request-context';
import { Organization } from '../organizations/organization.entity';
import { StudentEvents } from './student-events';
import { Student } from './student.entity';

export interface StudentQuery {
  search?: string;
  page: number;
  limit: number;
  /** Starts after this student (keyset); no OFFSET and no count then. */
  cursor?: StudentCursor;
}

export { likeEscape };

/** The studio's customers: search, read, create and rename, inside the caller's organization. */
@Injectable()
export class StudentsService {
  constructor(
    private readonly em: EntityManager,
    private readonly events: StudentEvents,
  ) {}

  /**
   * One page of the organization's students by last name: raw rows from one statement (and the
   * count beside it), shaped straight into the answer; no entities are hydrated for a list.
   */
  async list(
    ctx: RequestContext,
    query: StudentQuery,
  ): Promise<{ students: StudentListRow[]; total: number | null; nextCursor: string | null }> {
    const clauses = ['s.organization_id = ?'];
    const params: unknown[] = [ctx.organizationId];
    const term = query.search?.trim().toLowerCase();
    if (term) {
      // Uses the trigram index on the same expression.
      clauses.push(`lower(s.first_name || ' ' || s.last_name || ' ' || s.email) like ?`);
      params.push(`%${likeEscape(term)}%`);
    }
    const where = clauses.join(' and ');
    const connection = this.em.getConnection();
    // After a cursor: the rows past that student on the name index, no OFFSET, and no count again.
    const keyset = query.cursor ? `(s.last_name, s.first_name, s.id) > (?, ?, ?::uuid)` : null;
    const [rows, count] = await Promise.all([
      connection.execute<{ id: string; first_name: string; last_name: string; email: string; phone: string | null; user_id: string | null; created_at: Date }[]>(
        `select s.id, s.first_name, s.last_name, s.email, s.phone, s.user_id, s.created_at from student s
          where ${where}${keyset ? ` and ${keyset}` : ''} order by s.last_name asc, s.first_name asc, s.id asc limit ?${keyset ? '' : ' offset ?'}`,
        query.cursor
          ? [...params, query.cursor.last, query.cursor.first, query.cursor.id, query.limit]
          : [...params, query.limit, (query.page - 1) * query.limit],
      ),
      keyset ? null : connection.execute<{ total: string }[]>(`select count(*) as total from student s where ${where}`, params),
    ]);
    const last = rows.length === query.limit ? rows[rows.length - 1] : undefined;
    const students = rows.map((r) => ({
      id: r.id,
      firstName: r.first_name,
      lastName: r.last_name,
      email: r.email,
      phone: r.phone,
      userId: r.user_id,
      createdAt: new Date(r.created_at),
    }));
    return {
      students,
      total: count ? Number(count[0].total) : null,
      nextCursor: last ? encodeStudentCursor({ last: last.last_name, first: last.first_name, id: last.id }) : null,
    };
  }

  async requireStudent(ctx: RequestContext, id: string): Promise<Student> {
    const student = await this.em.findOne(Student, { id, organization: ctx.organizationId });
    if (!student) throw notFound('Student not found');
    return student;
  }

  /** The organization's student with this email (case-insensitive), or null: never created here. */
  async findByEmail(organizationId: string, email: string): Promise<Student | null> {
    return this.em.fork().findOne(Student, { organization: organizationId, email: email.trim().toLowerCase() });
  }

  /**
   * The organization's student with this email, created when there is none (a buyer who came
   * through a provider, such as Eventbrite), in the caller's transaction. The unique index on the
   * email settles two at once.
   */
  async findOrCreateByEmail(
    ctx: Pick<RequestContext, 'organizationId'>,
    em: EntityManager,
    input: { first_name: string; last_name: string; email: string },
  ): Promise<Student> {
    const email = input.email.trim().toLowerCase();
    const inserted = await em.execute<{ id: string }[]>(
      `insert into student (id, organization_id, first_name, last_name, email, created_at)
       values (gen_random_uuid(), ?, ?, ?, ?, now()) on conflict do nothing returning id`,
      [ctx.organizationId, input.first_name.slice(0, 100), input.last_name.slice(0, 100), email],
    );
    // A new customer, with its row (the outbox): mailing lists get it as they get one added by an admin.
    if (inserted[0]?.id)
      await this.events.publish(em, { type: 'student.created', organizationId: ctx.organizationId, studentId: inserted[0].id });
    return em.findOneOrFail(Student, { organization: ctx.organizationId, email });
  }

  async create(ctx: RequestContext, input: StudentCreatePayload) {
    const email = input.email.toLowerCase();
    const taken = () => new ApiError(HttpStatus.CONFLICT, M.emailTaken, { email: M.emailTaken });
    if (await this.em.count(Student, { organization: ctx.organizationId, email })) throw taken();
    try {
      return await this.em.transactional(async (em) => {
        const student = em.create(Student, {
          organization: em.getReference(Organization, ctx.organizationId),
          firstName: input.first_name,
          lastName: input.last_name,
          email,
          phone: input.phone ?? null,
        });
        await em.flush();
        // With the student (the outbox): mailing lists get the new customer.
        await this.events.publish(em as EntityManager, { type: 'student.created', organizationId: ctx.organizationId, studentId: student.id });
        return student;
      });
    } catch (error) {
      // Two requests with the same email raced past the check: the unique index decides.
      if (error instanceof UniqueConstraintViolationException) throw taken();
      throw error;
    }
  }

  /** Students as a provider sync reads them (ids, email, names), a page at a time; read-only. */
  contacts(
    organizationId: string,
    query: { fromId?: string | null; limit?: number; ids?: string[] },
  ): Promise<StudentContact[]> {
    return readStudentContacts(this.em, organizationId, query);
  }

  async rename(ctx: RequestContext, id: string, input: { first_name: string; last_name: string }) {
    const student = await this.requireStudent(ctx, id);
    student.firstName = input.first_name;
    student.lastName = input.last_name;
    await this.em.flush();
    return student;
  }
}

/** A student as other modules read it to share with a provider (the sync module's mailing lists). */
export interface StudentContact {
  id: string;
  email: string;
  firstName: string;
  lastName: string;
  phone: string | null;
}

/**
 * Read-only pages of the organization's students for other modules (a mailing list's backfill):
 * ordered by id, from `fromId` (inclusive) or the start; `ids` reads those students only.
 */
export async function readStudentContacts(
  em: EntityManager,
  organizationId: string,
  query: { fromId?: string | null; limit?: number; ids?: string[] },
): Promise<StudentContact[]> {
  const params: unknown[] = [organizationId];
  let where = 'organization_id = ?';
  if (query.ids) {
    if (query.ids.length === 0) return [];
    where += ` and id in (${query.ids.map(() => '?').join(', ')})`;
    params.push(...query.ids);
  }
  if (query.fromId) {
    where += ' and id >= ?';
    params.push(query.fromId);
  }
  const limit = query.limit ? ` limit ${Math.max(1, Math.min(10_000, Math.floor(query.limit)))}` : '';
  const rows = await em.getConnection().execute<
    { id: string; email: string; first_name: string; last_name: string; phone: string | null }[]
  >(`select id, email, first_name, last_name, phone from student where ${where} order by id${limit}`, params);
  return rows.map((r) => ({ id: r.id, email: r.email, firstName: r.first_name, lastName: r.last_name, phone: r.phone }));
}

/** What the student answers read of a student. */
export type StudentListRow = Pick<Student, 'id' | 'firstName' | 'lastName' | 'email' | 'phone' | 'userId' | 'createdAt'>;

export function mapStudent(s: StudentListRow) {
  return {
    student_id: s.id,
    first_name: s.firstName,
    last_name: s.lastName,
    email: s.email,
    phone: s.phone ?? null,
    user_id: s.userId ?? null,
    created_at: s.createdAt.toISOString(),
  };
}
