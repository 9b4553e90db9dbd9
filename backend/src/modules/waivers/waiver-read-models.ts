import { EntityManager } from '@mikro-orm/postgresql';
import { Injectable } from '@nestjs/common';
import type { WaiverSubmission as WaiverSubmissionOut, WaiverSummary } from '@studio/contracts';
import { RequestContext } from '../../common/request-context';

/**
 * What the admin reads of waivers: the Waivers page's templates with their submissions counted, and
 * the student drawer's submissions. Read only; the template's name is the catalog's, read here in
 * one join (written only by the catalog).
 */
@Injectable()
export class WaiverReadModels {
  constructor(private readonly em: EntityManager) {}

  /**
   * The Waivers page: every template of the organization (by name, at most 1000) with its
   * submissions counted by state (withdrawn ones are not counted, nor a store checkout's signing
   * that no checkout took: it is nobody's yet). The templates are the catalog's, read here in one join.
   */
  async summary(ctx: RequestContext): Promise<WaiverSummary[]> {
    const rows = await this.em.execute<
      { id: string; name: string; created_at: Date; document_url: string | null; pending: string; completed: string; expired: string }[]
    >(
      `select t.id, t.name, t.created_at, t.document_url,
              count(s.id) filter (where s.status = 'pending') as pending,
              count(s.id) filter (where s.status = 'completed') as completed,
              count(s.id) filter (where s.status = 'expired') as expired
         from waiver_template t
         left join waiver_submission s on s.template_id = t.id and s.organization_id = t.organization_id and s.withdrawn_at is null and s.student_id is not null
        where t.organization_id = ?
        group by t.id
        order by t.name, t.id
        limit 1000`,
      [ctx.organizationId],
    );
    return rows.map((r) => ({
      template_id: r.id,
      name: r.name,
      created_at: new Date(r.created_at).toISOString(),
      document_url: r.document_url,
      pending: Number(r.pending),
      completed: Number(r.completed),
      expired: Number(r.expired),
    }));
  }

  /** The student drawer's waivers (spec 001 §3 Waiver submission), newest first; withdrawn ones are not listed. */
  async forStudent(ctx: RequestContext, studentId: string): Promise<WaiverSubmissionOut[]> {
    const rows = await this.em.execute<
      { id: string; status: WaiverSubmissionOut['status']; completed_at: Date | null; created_at: Date; submission_url: string | null; sign_url: string | null; name: string }[]
    >(
      // The template's name is the catalog's; read here in one join, written only by the catalog.
      `select s.id, s.status, s.completed_at, s.created_at, s.submission_url, s.sign_url, t.name
         from waiver_submission s join waiver_template t on t.id = s.template_id
        where s.organization_id = ? and s.student_id = ? and s.withdrawn_at is null
        order by s.created_at desc, s.id desc limit 100`,
      [ctx.organizationId, studentId],
    );
    return rows.map((r) => ({
      submission_id: r.id,
      status: r.status,
      completed_at: r.completed_at ? new Date(r.completed_at).toISOString() : null,
      created_at: new Date(r.created_at).toISOString(),
      submission_url: r.submission_url,
      sign_url: r.sign_url,
      DocusealTemplate: { name: r.name },
    }));
  }
}
