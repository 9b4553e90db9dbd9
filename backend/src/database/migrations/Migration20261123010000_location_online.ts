import { Migration } from '@mikro-orm/migrations';

/**
 * A location says whether its classes happen online (their sessions get a Zoom meeting). Until
 * now the sync guessed it from the words Online, Zoom or Virtual in the name or address; locations
 * that matched keep their meetings.
 */
export class Migration20261123010000_location_online extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "location" add column "online" boolean not null default false;`);
    this.addSql(
      `update "location" set "online" = true where "name" ~* '\\m(online|zoom|virtual)\\M' or "address" ~* '\\m(online|zoom|virtual)\\M';`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "location" drop column "online";`);
  }
}
