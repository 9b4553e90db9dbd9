import { CreateRequestContext } from '@mikro-orm/core';
import { EntityManager } from '@mikro-orm/postgresql';
import { Injectable, OnModuleInit } from '@nestjs/common';
import { EnrollmentEvents } from '../../scheduling/enrollment-events';
import { StudentEvents } from '../../students/student-events';
import { StudentsService } from '../../students/students.service';
import { SyncChangeEvents } from '../sync-config-events';
import { SyncConnectionsService } from '../sync-connections.service';
import { SyncSwitches } from '../sync-switches';
import {
  MAILING_LIST_PROVIDERS,
  MailingListProvider,
  STUDENT_UPSERT,
  STUDENTS_BATCH,
} from './mailing-list-jobs';
import { SyncJobsService } from './sync-jobs.service';

/**
 * Keeps students on the mailing lists (Mailchimp, Klaviyo) where sync_all_customers is on and a
 * list is picked: a new student and a new enrollment enqueue that student's upsert; turning the
 * toggle on, or picking another list, enqueues the first page of a full backfill (each page
 * enqueues the next). Only enqueues: the workers call the providers.
 */
@Injectable()
export class MailingListSync implements OnModuleInit {
  constructor(
    // Read by @CreateRequestContext() on the listener entries.
    private readonly em: EntityManager,
    private readonly switches: SyncSwitches,
    private readonly connections: SyncConnectionsService,
    private readonly jobs: SyncJobsService,
    private readonly students: StudentsService,
    private readonly studentEvents: StudentEvents,
    private readonly enrollmentEvents: EnrollmentEvents,
    private readonly changes: SyncChangeEvents,
  ) {}

  onModuleInit(): void {
    this.studentEvents.on('student.created', 'sync.mailing-lists', (e) => this.studentChanged(e.organizationId, e.studentId));
    this.enrollmentEvents.on('enrollment.created', 'sync.mailing-lists', (e) => this.studentChanged(e.organizationId, e.studentId));
    this.changes.on('sync.config.saved', 'sync.mailing-lists', async (e) => {
      if (e.provider !== 'mailchimp' && e.provider !== 'klaviyo') return;
      const before = e.before as { list_id?: string | null; sync_all_customers?: boolean };
      const after = e.after as { list_id?: string | null; sync_all_customers?: boolean };
      const wasOn = Boolean(before.sync_all_customers && before.list_id);
      const isOn = Boolean(after.sync_all_customers && after.list_id);
      if (isOn && (!wasOn || before.list_id !== after.list_id))
        await this.backfill(e.organizationId, e.provider);
    });
  }

  /** Enqueues the first page of the backfill of every student onto the provider's list. */
  @CreateRequestContext() // a listener's entry: its own MikroORM context
  async backfill(organizationId: string, provider: MailingListProvider): Promise<void> {
    if (!(await this.connections.find({ organizationId }, provider))) return;
    const [first] = await this.students.contacts(organizationId, { limit: 1 });
    if (!first) return;
    await this.jobs.enqueue({
      organizationId,
      provider,
      action: STUDENTS_BATCH,
      localType: 'student',
      localId: first.id,
    });
  }

  @CreateRequestContext() // a listener's entry: its own MikroORM context
  private async studentChanged(organizationId: string, studentId: string): Promise<void> {
    // Cached (SyncSwitches): an organization without mailing-list sync reads nothing here.
    const lists = await this.switches.activeLists(organizationId);
    for (const provider of MAILING_LIST_PROVIDERS) {
      if (!lists[provider]) continue;
      await this.jobs.enqueue({
        organizationId,
        provider,
        action: STUDENT_UPSERT,
        localType: 'student',
        localId: studentId,
      });
    }
  }
}
