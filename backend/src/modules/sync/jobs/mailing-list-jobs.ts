import { EntityManager } from '@mikro-orm/postgresql';
import { ModuleRef } from '@nestjs/core';
import type { SyncProviderName } from '@studio/contracts';
import { StudentContact, StudentsService } from '../../students/students.service';
import type { DriverAuth } from '../drivers/sync-driver';
import { SyncConnectionsService } from '../sync-connections.service';
import { SyncSettingsService } from '../sync-settings.service';
import { recordStudentsFailed, recordStudentsSynced } from './student-list-mappings';
import type { SyncJobData, SyncJobHandler, SyncJobMapping, SyncJobResult } from './sync-job.types';
import { SyncJobsService } from './sync-jobs.service';

export type MailingListProvider = Extract<SyncProviderName, 'mailchimp' | 'klaviyo'>;
export const MAILING_LIST_PROVIDERS: MailingListProvider[] = ['mailchimp', 'klaviyo'];

/** One student, as it arrives (new student, new enrollment): `student.upsert`, local id = the student. */
export const STUDENT_UPSERT = 'student.upsert';
/**
 * One page of the backfill: `students.batch`, local id = the page's first student (the cursor).
 * The job reads up to MAILING_LIST_PAGE students from that id (in id order), upserts them in one
 * batch call, records each student's mapping, and enqueues the next page at the first student it
 * did not take. Its payload is ids only, and re-running a page upserts the same members again.
 */
export const STUDENTS_BATCH = 'students.batch';
export const MAILING_LIST_PAGE = 500;

/** The list to keep students on, or null when the provider's sync_all_customers is off or no list is picked. */
export async function activeListId(
  settings: SyncSettingsService,
  organizationId: string,
  provider: MailingListProvider,
): Promise<string | null> {
  const config = await settings.config({ organizationId }, provider);
  return config.sync_all_customers && config.list_id ? config.list_id : null;
}

export interface PageResult {
  /** Student id → the provider's id. */
  ids: Map<string, string>;
  /** Student id → why the provider refused it. */
  refused: Map<string, string>;
}

/** What a mailing-list driver does for the student sync. */
export interface StudentListWriter {
  /**
   * Adds or updates the students on the list in as few calls as the API allows: the provider's
   * id per student, and the reason for each student the provider refused.
   */
  upsertPage(auth: DriverAuth, listId: string, students: StudentContact[]): Promise<PageResult>;
  /** Adds or updates one student on the list; the provider's id. */
  upsertOne(auth: DriverAuth, listId: string, student: StudentContact): Promise<string>;
}

abstract class MailingListHandler implements SyncJobHandler {
  abstract readonly provider: MailingListProvider;
  abstract readonly action: string;

  constructor(
    protected readonly em: EntityManager,
    protected readonly students: StudentsService,
    protected readonly settings: SyncSettingsService,
    protected readonly connections: SyncConnectionsService,
    protected readonly moduleRef: ModuleRef,
    protected readonly writer: StudentListWriter,
  ) {}

  /** Runs in the job's MikroORM context (SyncJobsService.run). */
  handle(job: SyncJobData, mapping: SyncJobMapping): Promise<SyncJobResult> {
    return this.run(job, mapping);
  }

  protected abstract run(job: SyncJobData, mapping: SyncJobMapping): Promise<SyncJobResult>;
}

/** A new student or enrollment: the student is added to (or updated on) the list. */
export abstract class StudentUpsertHandler extends MailingListHandler {
  readonly action = STUDENT_UPSERT;

  protected async run(job: SyncJobData): Promise<SyncJobResult> {
    const listId = await activeListId(this.settings, job.organizationId, this.provider);
    if (!listId) return { stage: 'cancelled' };
    const [student] = await this.students.contacts(job.organizationId, { ids: [job.localId] });
    if (!student) return { stage: 'cancelled' };
    const auth = await this.connections.auth({ organizationId: job.organizationId }, this.provider);
    return { remoteId: await this.writer.upsertOne(auth, listId, student) };
  }
}

/** One page of the first full backfill (see STUDENTS_BATCH). */
export abstract class StudentsBatchHandler extends MailingListHandler {
  readonly action = STUDENTS_BATCH;

  protected async run(job: SyncJobData): Promise<SyncJobResult> {
    const listId = await activeListId(this.settings, job.organizationId, this.provider);
    if (!listId) return { stage: 'cancelled' };
    const rows = await this.students.contacts(job.organizationId, {
      fromId: job.localId,
      limit: MAILING_LIST_PAGE + 1,
    });
    const page = rows.slice(0, MAILING_LIST_PAGE);
    const next = rows[MAILING_LIST_PAGE];
    const auth = await this.connections.auth({ organizationId: job.organizationId }, this.provider);
    const result: PageResult = page.length
      ? await this.writer.upsertPage(auth, listId, page)
      : { ids: new Map(), refused: new Map() };
    const remoteIds = result.ids;
    await recordStudentsSynced(
      this.em,
      job.organizationId,
      this.provider,
      page
        .filter((s) => remoteIds.has(s.id))
        .map((s) => ({ studentId: s.id, remoteId: remoteIds.get(s.id)! })),
    );
    // Students the provider refused are failed with its reason (the cursor student's own row is
    // the job's, which the job runner writes).
    await recordStudentsFailed(
      this.em,
      job.organizationId,
      this.provider,
      page
        .filter((s) => s.id !== job.localId && !remoteIds.has(s.id))
        .map((s) => ({
          studentId: s.id,
          error: result.refused.get(s.id) ?? `${this.provider} did not take this student`,
        })),
    );
    if (next) {
      await this.moduleRef.get(SyncJobsService, { strict: false }).enqueue({
        organizationId: job.organizationId,
        provider: this.provider,
        action: STUDENTS_BATCH,
        localType: 'student',
        localId: next.id,
      });
    }
    // The page's own row is the cursor student's; the job runner marks it. A refusal of that one
    // student is not thrown (a retry would re-run the page and every page after it): the job
    // succeeds and the student's mapping is failed with the provider's reason.
    const cursorId = remoteIds.get(job.localId);
    if (cursorId) return { remoteId: cursorId };
    if (!page.some((s) => s.id === job.localId)) return { stage: 'cancelled' }; // the student is gone
    return {
      stage: 'failed',
      error: result.refused.get(job.localId) ?? `${this.provider} did not take this student`,
    };
  }
}
