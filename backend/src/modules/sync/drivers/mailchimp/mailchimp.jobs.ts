import { EntityManager } from '@mikro-orm/postgresql';
import { Injectable } from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import { StudentContact, StudentsService } from '../../../students/students.service';
import { StudentListWriter, StudentsBatchHandler, StudentUpsertHandler } from '../../jobs/mailing-list-jobs';
import { SyncConnectionsService } from '../../sync-connections.service';
import { SyncSettingsService } from '../../sync-settings.service';
import type { DriverAuth } from '../sync-driver';
import { MailchimpClient, subscriberHash } from './mailchimp.client';

const contact = (s: StudentContact) => ({
  email: s.email,
  firstName: s.firstName,
  lastName: s.lastName,
  phone: s.phone,
});

/** Students on a Mailchimp list: batch subscribe (500 a call, update_existing) or one member PUT. */
export const mailchimpWriter: StudentListWriter = {
  async upsertPage(auth: DriverAuth, listId: string, students: StudentContact[]) {
    const result = await new MailchimpClient(auth).batchUpsert(listId, students.map(contact));
    const byEmail = new Map(
      [...result.newMembers, ...result.updatedMembers].map((m) => [m.email.toLowerCase(), m.id]),
    );
    const refusedByEmail = new Map(result.errors.map((e) => [e.email.toLowerCase(), e.error]));
    const ids = new Map<string, string>();
    const refused = new Map<string, string>();
    for (const s of students) {
      const id = byEmail.get(s.email.toLowerCase());
      if (id) ids.set(s.id, id);
      else refused.set(s.id, `Mailchimp: ${refusedByEmail.get(s.email.toLowerCase()) ?? 'not added'}`);
    }
    return { ids, refused };
  },
  async upsertOne(auth: DriverAuth, listId: string, student: StudentContact) {
    const member = await new MailchimpClient(auth).upsertMember(listId, contact(student));
    return member.id ?? subscriberHash(student.email);
  },
};

@Injectable()
export class MailchimpStudentUpsertHandler extends StudentUpsertHandler {
  readonly provider = 'mailchimp' as const;
  constructor(
    em: EntityManager,
    students: StudentsService,
    settings: SyncSettingsService,
    connections: SyncConnectionsService,
    moduleRef: ModuleRef,
  ) {
    super(em, students, settings, connections, moduleRef, mailchimpWriter);
  }
}

@Injectable()
export class MailchimpStudentsBatchHandler extends StudentsBatchHandler {
  readonly provider = 'mailchimp' as const;
  constructor(
    em: EntityManager,
    students: StudentsService,
    settings: SyncSettingsService,
    connections: SyncConnectionsService,
    moduleRef: ModuleRef,
  ) {
    super(em, students, settings, connections, moduleRef, mailchimpWriter);
  }
}
