import { UniqueConstraintViolationException } from '@mikro-orm/core';
import { EntityManager } from '@mikro-orm/postgresql';
import { STUDENT_MESSAGES as M, StudentCreatePayload } from '@studio/contracts';
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
}

export { likeEscape };

/** The studio's customers: search, read, create and rename, inside the caller's organization. */
@Injectable()
export class StudentsService {
  constructor(
    private readonly em: EntityManager,
    private readonly events: StudentEvents,
  ) {}

  async list(ctx: RequestContext, query: StudentQuery): Promise<{ students: Student[]; total: number }> {
    const qb = this.em.createQueryBuilder(Student, 's').where({ organization: ctx.organizationId });
    const term = query.search?.trim().toLowerCase();
    if (term) {
      // Uses the trigram index on the same expression.
      qb.andWhere(`lower(s.first_name || ' ' || s.last_name || ' ' || s.email) like ?`, [
        `%${likeEscape(term)}%`,
      ]);
    }
    const [students, total] = await qb
      .orderBy({ lastName: 'asc', firstName: 'asc', id: 'asc' })
      .limit(query.limit)
      .offset((query.page - 1) * query.limit)
      .getResultAndCount();
    return { students, total };
  }

  async requireStudent(ctx: RequestContext, id: string): Promise<Student> {
    const student = await this.em.findOne(Student, { id, organization: ctx.organizationId });
    if (!student) throw notFound('Student not found');
    return student;
  }

  async create(ctx: RequestContext, input: StudentCreatePayload) {
    const email = input.email.toLowerCase();
    const taken = () => new ApiError(HttpStatus.CONFLICT, M.emailTaken, { email: M.emailTaken });
    if (await this.em.count(Student, { organization: ctx.organizationId, email })) throw taken();
    const student = this.em.create(Student, {
      organization: this.em.getReference(Organization, ctx.organizationId),
      firstName: input.first_name,
      lastName: input.last_name,
      email,
      phone: input.phone ?? null,
    });
    try {
      await this.em.persistAndFlush(student);
    } catch (error) {
      // Two requests with the same email raced past the check: the unique index decides.
      if (error instanceof UniqueConstraintViolationException) throw taken();
      throw error;
    }
    await this.events.emit({ type: 'student.created', organizationId: ctx.organizationId, studentId: student.id });
    return student;
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

export function mapStudent(s: Student) {
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
