import { UniqueConstraintViolationException } from '@mikro-orm/core';
import { EntityManager } from '@mikro-orm/postgresql';
import { HttpStatus, Injectable } from '@nestjs/common';
import {
  dateTimeInstant,
  DISCOUNT_MESSAGES as M,
  MESSAGES,
  parseDateTimeInput,
  DiscountListQuery,
  DiscountPayload,
  discountStatus,
  type DiscountRule,
} from '@studio/contracts';
import { ApiError, notFound } from '../../common/api-error';
import { likeEscape } from '../../common/like-escape';
import { RequestContext } from '../../common/request-context';
import { CoursesService } from '../catalog/courses.service';
import { Organization } from '../organizations/organization.entity';
import { OrganizationsService } from '../organizations/organizations.service';
import { DiscountCode } from './discount-code.entity';

const codeTaken = () => new ApiError(HttpStatus.CONFLICT, M.codeTaken, { code: M.codeTaken });

/** Discount codes: create, edit, read and list inside the caller's organization; count their use. */
@Injectable()
export class DiscountsService {
  constructor(
    private readonly em: EntityManager,
    private readonly courses: CoursesService,
    private readonly organizations: OrganizationsService,
  ) {}

  /**
   * The code a buyer typed at the store (codes are not case-sensitive), as the pricing rule reads it
   * (discount-pricing.ts), or null when the organization has no such code.
   */
  async ruleByCode(
    ctx: Pick<RequestContext, 'organizationId'>,
    code: string,
  ): Promise<(DiscountRule & { id: string; code: string }) | null> {
    // lower(code) as the unique index reads it.
    const [row] = await this.em.execute<{ id: string }[]>(
      `select id from discount_code where organization_id = ? and lower(code) = lower(?)`,
      [ctx.organizationId, code.trim()],
    );
    const found = row ? await this.em.findOne(DiscountCode, { id: row.id }) : null;
    if (!found) return null;
    return {
      id: found.id,
      code: found.code,
      type: found.type,
      value: found.value,
      activity_id: found.activityId,
      apply_logic: found.applyLogic,
      start_date: found.startDate,
      expiration_date: found.expirationDate,
    };
  }

  /** The discount of the organization with this id, or null (an order's code, even if deleted since). */
  findById(organizationId: string, id: string): Promise<DiscountCode | null> {
    return this.em.findOne(DiscountCode, { id, organization: organizationId });
  }

  /** The discount, or 404 when it does not exist in the caller's organization. */
  async requireDiscount(ctx: RequestContext, id: string): Promise<DiscountCode> {
    const discount = await this.em.findOne(DiscountCode, { id, organization: ctx.organizationId });
    if (!discount) throw notFound(M.notFound);
    return discount;
  }

  async create(ctx: RequestContext, input: DiscountPayload): Promise<DiscountCode> {
    const fields = await this.fields(ctx, input);
    await this.checkCourse(ctx, input.activity_id);
    await this.checkCodeFree(ctx, input.code, null);
    const discount = this.em.create(DiscountCode, {
      organization: this.em.getReference(Organization, ctx.organizationId),
      ...fields,
    });
    await this.flushOrConflict(() => this.em.persistAndFlush(discount));
    return discount;
  }

  async update(ctx: RequestContext, id: string, input: DiscountPayload): Promise<DiscountCode> {
    const discount = await this.requireDiscount(ctx, id);
    const fields = await this.fields(ctx, input);
    await this.checkCourse(ctx, input.activity_id);
    await this.checkCodeFree(ctx, input.code, discount.id);
    this.em.assign(discount, fields);
    await this.flushOrConflict(() => this.em.flush());
    return discount;
  }

  /** One page of the organization's codes, newest first; `search` matches any part of the code or label. */
  async list(
    ctx: RequestContext,
    query: DiscountListQuery,
  ): Promise<{ items: DiscountListRow[]; total: number }> {
    const clauses = ['d.organization_id = ?'];
    const params: unknown[] = [ctx.organizationId];
    const term = query.search?.toLowerCase();
    // Uses the trigram index on the same expression.
    if (term) {
      clauses.push(`lower(d.code || ' ' || d.label) like ?`);
      params.push(`%${likeEscape(term)}%`);
    }
    const where = clauses.join(' and ');
    const connection = this.em.getConnection();
    // Raw rows shaped straight into the answer: no entities are hydrated for a list.
    const [rows, [count]] = await Promise.all([
      connection.execute<DiscountRow[]>(
        `select d.id, d.label, d.code, d.type, d.value, d.activity_id, d.apply_logic, d.start_date, d.expiration_date,
                d.times_used, d.created_at, d.updated_at
           from discount_code d where ${where} order by d.created_at desc, d.id desc limit ? offset ?`,
        [...params, query.limit, (query.page - 1) * query.limit],
      ),
      connection.execute<{ total: string }[]>(
        `select count(*) as total from discount_code d where ${where}`,
        params,
      ),
    ]);
    const date = (v: Date | null) => (v ? new Date(v) : null);
    const items = rows.map((r) => ({
      id: r.id,
      label: r.label,
      code: r.code,
      type: r.type,
      value: Number(r.value),
      activityId: r.activity_id,
      applyLogic: r.apply_logic,
      startDate: date(r.start_date),
      expirationDate: date(r.expiration_date),
      timesUsed: Number(r.times_used),
      createdAt: new Date(r.created_at),
      updatedAt: new Date(r.updated_at),
    }));
    return { items, total: Number(count.total) };
  }

  /**
   * Counts a paid order's use of a code (the store's checkout, issue 21) once per order, however
   * often its payment is announced: its discount_use row and the count move together, so a repeat is
   * a no-op. Answers whether it counted. A code deleted since counts nothing.
   */
  async countOrderUse(organizationId: string, discountCodeId: string, orderId: string): Promise<boolean> {
    return this.em.fork().transactional(async (em) => {
      const rows = await em.execute<{ order_id: string }[]>(
        `insert into "discount_use" ("order_id", "organization_id", "discount_code_id", "created_at")
         select ?, ?, "id", now() from "discount_code" where "id" = ? and "organization_id" = ?
         on conflict do nothing returning "order_id"`,
        [orderId, organizationId, discountCodeId, organizationId],
      );
      if (rows.length === 0) return false;
      await em.execute(
        `update "discount_code" set "times_used" = "times_used" + 1, "updated_at" = now() where "id" = ? and "organization_id" = ?`,
        [discountCodeId, organizationId],
      );
      return true;
    });
  }

  /**
   * Counts one more use of a code, for a paid order (orders issue 9). One UPDATE … SET times_used =
   * times_used + 1, so concurrent payments never lose a count. Answers the new count; 404 when the
   * code is not the organization's.
   */
  async incrementUsage(ctx: Pick<RequestContext, 'organizationId'>, id: string): Promise<number> {
    const rows = await this.em
      .getConnection()
      .execute<{ times_used: number }[]>(
        `update "discount_code" set "times_used" = "times_used" + 1, "updated_at" = now() where "id" = ? and "organization_id" = ? returning "times_used"`,
        [id, ctx.organizationId],
      );
    if (rows.length === 0) throw notFound(M.notFound);
    return Number(rows[0].times_used);
  }

  /**
   * The columns of a valid payload. The window's dates are instants, or wall-clock times read in the
   * organization's zone (spec 000 §3); once both are instants the end must still be after the start.
   */
  private async fields(ctx: RequestContext, input: DiscountPayload) {
    const wallClock = [input.start_date, input.expiration_date].some(
      (d) => d && parseDateTimeInput(d)?.kind === 'wall',
    );
    const zone = wallClock ? (await this.organizations.current(ctx)).timezone : null;
    const instant = (text: string | null) => (text ? dateTimeInstant(text, zone) : null);
    const startDate = instant(input.start_date);
    const expirationDate = instant(input.expiration_date);
    if (startDate && expirationDate && expirationDate <= startDate) {
      throw new ApiError(HttpStatus.BAD_REQUEST, MESSAGES.common.validationFailed, {
        expiration_date: M.endBeforeStart,
      });
    }
    return {
      label: input.label,
      code: input.code,
      type: input.type,
      value: input.value,
      activityId: input.activity_id,
      applyLogic: input.apply_logic,
      startDate,
      expirationDate,
    };
  }

  /** A course the code is limited to must be the organization's (catalog's service answers 404 otherwise). */
  private async checkCourse(ctx: RequestContext, activityId: string | null): Promise<void> {
    if (activityId) await this.courses.requireCourse(ctx, activityId);
  }

  private async checkCodeFree(ctx: RequestContext, code: string, exceptId: string | null): Promise<void> {
    const qb = this.em
      .createQueryBuilder(DiscountCode, 'd')
      .where({ organization: ctx.organizationId })
      .andWhere('lower(d.code) = lower(?)', [code]);
    if (exceptId) qb.andWhere({ id: { $ne: exceptId } });
    if ((await qb.getCount()) > 0) throw codeTaken();
  }

  private async flushOrConflict(flush: () => Promise<void>): Promise<void> {
    try {
      await flush();
    } catch (error) {
      // Two saves with the same code raced past the check: the unique index decides.
      if (error instanceof UniqueConstraintViolationException) throw codeTaken();
      throw error;
    }
  }
}

/** The answer of every promo-code endpoint: spec 000 §3 fields, plus the use count and the status now. */
/** What the promo-code answers read of a code. */
export type DiscountListRow = Pick<
  DiscountCode,
  | 'id'
  | 'label'
  | 'code'
  | 'type'
  | 'value'
  | 'activityId'
  | 'applyLogic'
  | 'startDate'
  | 'expirationDate'
  | 'timesUsed'
  | 'createdAt'
  | 'updatedAt'
>;

type DiscountRow = {
  id: string;
  label: string;
  code: string;
  type: DiscountCode['type'];
  value: number;
  activity_id: string | null;
  apply_logic: DiscountCode['applyLogic'];
  start_date: Date | null;
  expiration_date: Date | null;
  times_used: number;
  created_at: Date;
  updated_at: Date;
};

export function mapDiscount(d: DiscountListRow, now: Date = new Date()) {
  const start = d.startDate ? d.startDate.toISOString() : null;
  const end = d.expirationDate ? d.expirationDate.toISOString() : null;
  return {
    id: d.id,
    label: d.label,
    code: d.code,
    type: d.type,
    value: d.value,
    activity_id: d.activityId,
    apply_logic: d.applyLogic,
    start_date: start,
    expiration_date: end,
    times_used: d.timesUsed,
    status: discountStatus({ start_date: start, expiration_date: end }, now),
    created_at: d.createdAt.toISOString(),
    updated_at: d.updatedAt.toISOString(),
  };
}
