import { Migration } from '@mikro-orm/migrations';

/**
 * The manage link (issue 23): `app_secret` keeps secrets the app makes for itself once, when no
 * environment variable gives them (the bookings' link key, `booking_link`), so every replica and
 * every restart signs and checks the same links. The first process to insert wins
 * (insert … on conflict do nothing, then read).
 */
export class Migration20261127090000_manage_link extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "app_secret" (
      "name" text primary key,
      "value" text not null,
      "created_at" timestamptz not null default now()
    );`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "app_secret";`);
  }
}
