import { Migration } from '@mikro-orm/migrations';

/** Students, orders, enrollments and tags, with the indexes the enrollments grid and search need. */
export class Migration20261122020000_enrollments extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create extension if not exists pg_trgm;`);
    this.addSql(`create table "student" (
      "id" uuid not null primary key,
      "organization_id" uuid not null references "organization" ("id") on delete cascade,
      "first_name" text not null,
      "last_name" text not null,
      "email" text not null,
      "phone" text null,
      "user_id" text null,
      "created_at" timestamptz not null default now());`);
    this.addSql(`create unique index "student_organization_email_unique" on "student" ("organization_id", "email");`);
    // Sorting a session's grid by name walks these in order (the id makes each key unique).
    this.addSql(`create index "student_organization_name_index" on "student" ("organization_id", "last_name", "first_name", "id");`);
    this.addSql(`create index "student_organization_first_name_index" on "student" ("organization_id", "first_name", "last_name", "id");`);
    // Substring search over name and email ("%ana%") stays fast with a trigram index.
    this.addSql(`create index "student_search_trgm" on "student" using gin ((lower("first_name" || ' ' || "last_name" || ' ' || "email")) gin_trgm_ops);`);

    this.addSql(`create table "customer_order" (
      "id" uuid not null primary key,
      "organization_id" uuid not null references "organization" ("id") on delete cascade,
      "order_number" integer not null,
      "student_id" uuid not null references "student" ("id") on delete restrict,
      "status" text not null check ("status" in ('pending', 'failed', 'paid', 'refunded', 'partial_refund', 'fraudulent')),
      "source" text not null,
      "total_cents" integer not null check ("total_cents" >= 0),
      "refunded_cents" integer not null default 0 check ("refunded_cents" >= 0),
      "event_id" uuid null,
      "description" text not null default '',
      "created_at" timestamptz not null default now());`);
    this.addSql(`create table "order_counter" (
      "organization_id" uuid not null primary key references "organization" ("id") on delete cascade,
      "last_number" integer not null);`);
    this.addSql(`create unique index "customer_order_number_unique" on "customer_order" ("organization_id", "order_number");`);
    this.addSql(`create index "customer_order_student_index" on "customer_order" ("student_id", "created_at");`);

    this.addSql(`create table "enrollment" (
      "id" uuid not null primary key,
      "organization_id" uuid not null references "organization" ("id") on delete cascade,
      "event_id" uuid not null references "event" ("id") on delete restrict,
      "student_id" uuid not null references "student" ("id") on delete restrict,
      "order_id" uuid null references "customer_order" ("id") on delete set null,
      "guest_count" integer not null default 0 check ("guest_count" >= 0),
      "status" text not null default 'active' check ("status" in ('active', 'removed')),
      "waiver_status" text not null default 'not_required' check ("waiver_status" in ('signed', 'pending', 'expired', 'not_required')),
      "created_at" timestamptz not null default now(),
      "removed_at" timestamptz null);`);
    // One active seat per student and session; the grid reads active rows of one event in order.
    this.addSql(`create unique index "enrollment_active_student_unique" on "enrollment" ("event_id", "student_id") where "status" = 'active';`);
    this.addSql(`create index "enrollment_event_created_index" on "enrollment" ("event_id", "created_at", "id") where "status" = 'active';`);
    this.addSql(`create index "enrollment_student_index" on "enrollment" ("student_id");`);

    this.addSql(`create table "tag" (
      "id" uuid not null primary key,
      "organization_id" uuid not null references "organization" ("id") on delete cascade,
      "name" text not null,
      "color" text not null,
      "icon" text null,
      "created_at" timestamptz not null default now());`);
    this.addSql(`create unique index "tag_organization_name_unique" on "tag" ("organization_id", lower("name"));`);
    this.addSql(`create table "event_tag" (
      "event_id" uuid not null references "event" ("id") on delete cascade,
      "tag_id" uuid not null references "tag" ("id") on delete cascade,
      primary key ("event_id", "tag_id"));`);
  }

  override async down(): Promise<void> {
    for (const table of ['event_tag', 'tag', 'enrollment', 'customer_order', 'order_counter', 'student']) this.addSql(`drop table if exists "${table}";`);
  }
}
