import { EntityManager } from '@mikro-orm/postgresql';
import { Injectable } from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import { StudentContact, StudentsService } from '../../../students/students.service';
import { StudentListWriter, StudentsBatchHandler, StudentUpsertHandler } from '../../jobs/mailing-list-jobs';
import { SyncConnectionsService } from '../../sync-connections.service';
import { SyncSettingsService } from '../../sync-settings.service';
import { ProviderRejectedError, type DriverAuth } from '../sync-driver';
import { KlaviyoDriver } from './klaviyo.driver';

const contact = (s: StudentContact) => ({
  email: s.email,
  firstName: s.firstName,
  lastName: s.lastName,
  phone: s.phone,
});
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** How long a page waits for Klaviyo's import job before the job is retried (the import upserts by email, so a rerun duplicates nothing). */
const IMPORT_WAIT_MS = 60_000;

/** Students on a Klaviyo list: a bulk import job per page, or one profile import plus list add. */
export function klaviyoWriter(driver: KlaviyoDriver): StudentListWriter {
  return {
    async upsertPage(auth: DriverAuth, listId: string, students: StudentContact[]) {
      const client = driver.client(auth.accessToken);
      let job = await client.startBulkImport(listId, students.map(contact));
      for (let waited = 0, delay = 250; !job.done; waited += delay, delay = Math.min(delay * 2, 5000)) {
        if (waited > IMPORT_WAIT_MS)
          throw new Error(`Klaviyo import ${job.id} is still ${job.status}: retrying`);
        await sleep(delay);
        job = await client.bulkImport(job.id);
      }
      if (job.status !== 'complete') {
        throw new ProviderRejectedError('klaviyo', 422, `Klaviyo import ${job.id} ended ${job.status}`);
      }
      const byEmail = new Map(
        (await client.bulkImportProfiles(job.id)).map((p) => [p.email.toLowerCase(), p.id]),
      );
      const ids = new Map<string, string>();
      const refused = new Map<string, string>();
      for (const s of students) {
        const id = byEmail.get(s.email.toLowerCase());
        if (id) ids.set(s.id, id);
        else refused.set(s.id, `Klaviyo import ${job.id} did not import this profile`);
      }
      return { ids, refused };
    },
    async upsertOne(auth: DriverAuth, listId: string, student: StudentContact) {
      return (await driver.client(auth.accessToken).upsertOnList(listId, contact(student))).id;
    },
  };
}

@Injectable()
export class KlaviyoStudentUpsertHandler extends StudentUpsertHandler {
  readonly provider = 'klaviyo' as const;
  constructor(
    em: EntityManager,
    students: StudentsService,
    settings: SyncSettingsService,
    connections: SyncConnectionsService,
    moduleRef: ModuleRef,
    driver: KlaviyoDriver,
  ) {
    super(em, students, settings, connections, moduleRef, klaviyoWriter(driver));
  }
}

@Injectable()
export class KlaviyoStudentsBatchHandler extends StudentsBatchHandler {
  readonly provider = 'klaviyo' as const;
  constructor(
    em: EntityManager,
    students: StudentsService,
    settings: SyncSettingsService,
    connections: SyncConnectionsService,
    moduleRef: ModuleRef,
    driver: KlaviyoDriver,
  ) {
    super(em, students, settings, connections, moduleRef, klaviyoWriter(driver));
  }
}
