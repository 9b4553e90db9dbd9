import { UniqueConstraintViolationException } from '@mikro-orm/core';
import { EntityManager } from '@mikro-orm/postgresql';
import { STUDENT_MESSAGES as M, StudentCreatePayload } from '@studio/contracts';
import { HttpStatus, Injectable } from '@nestjs/common';
import { ApiError, notFound } from '../../common/api-error';
import { likeEscape } from '../../common/like-escape';
import { RequestContext } from '../../common/request-context';
import { Organization } from '../organizations/organization.entity';
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
  constructor(private readonly em: EntityManager) {}

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
    await em.execute(
      `insert into student (id, organization_id, first_name, last_name, email, created_at)
       values (gen_random_uuid(), ?, ?, ?, ?, now()) on conflict do nothing`,
      [ctx.organizationId, input.first_name.slice(0, 100), input.last_name.slice(0, 100), email],
    );
    return em.findOneOrFail(Student, { organization: ctx.organizationId, email });
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
    return student;
  }

  async rename(ctx: RequestContext, id: string, input: { first_name: string; last_name: string }) {
    const student = await this.requireStudent(ctx, id);
    student.firstName = input.first_name;
    student.lastName = input.last_name;
    await this.em.flush();
    return student;
  }
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
