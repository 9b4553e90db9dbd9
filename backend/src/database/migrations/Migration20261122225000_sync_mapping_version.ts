import { Migration } from '@mikro-orm/migrations';

/**
 * `sync_mapping.version`: bumped when a change is enqueued for a record whose mapping is not
 * already waiting ('queued'), and part of the job id. A change that arrives while the record's job
 * runs gets a job of its own (BullMQ would ignore a second job with the running job's id), and the
 * running job, once done, leaves the newer 'queued' stage alone.
 */
export class Migration20261122225000_sync_mapping_version extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "sync_mapping" add column "version" integer not null default 0;`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "sync_mapping" drop column "version";`);
  }
}
