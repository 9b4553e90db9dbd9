import { Migration } from '@mikro-orm/migrations';

/** Catalog (locations, instructors, waivers, media, checkout forms, courses) and course sessions. */
export class Migration20261122010000_catalog extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "location" (
      "id" uuid not null primary key,
      "organization_id" uuid not null references "organization" ("id") on delete cascade,
      "name" text not null default '',
      "address" text not null,
      "timezone" text not null,
      "created_at" timestamptz not null default now());`);
    this.addSql(`create index "location_organization_id_index" on "location" ("organization_id");`);

    this.addSql(`create table "instructor" (
      "id" uuid not null primary key,
      "organization_id" uuid not null references "organization" ("id") on delete cascade,
      "first_name" text not null,
      "last_name" text not null default '',
      "photo_url" text null,
      "created_at" timestamptz not null default now());`);
    this.addSql(`create index "instructor_organization_id_index" on "instructor" ("organization_id");`);

    this.addSql(`create table "waiver_template" (
      "id" uuid not null primary key,
      "organization_id" uuid not null references "organization" ("id") on delete cascade,
      "name" text not null,
      "body" text not null default '',
      "document_url" text null,
      "created_at" timestamptz not null default now());`);
    this.addSql(`create index "waiver_template_organization_id_index" on "waiver_template" ("organization_id", "name");`);

    this.addSql(`create table "media" (
      "id" uuid not null primary key,
      "organization_id" uuid not null references "organization" ("id") on delete cascade,
      "storage_key" text not null unique,
      "url" text not null unique,
      "content_type" text not null,
      "byte_size" integer not null,
      "original_name" text not null default '',
      "created_at" timestamptz not null default now());`);
    this.addSql(`create index "media_organization_id_index" on "media" ("organization_id");`);

    this.addSql(`create table "checkout_form" (
      "id" uuid not null primary key,
      "organization_id" uuid not null references "organization" ("id") on delete cascade,
      "fields" jsonb not null default '[]',
      "created_at" timestamptz not null default now(),
      "updated_at" timestamptz not null default now());`);
    this.addSql(`create index "checkout_form_organization_id_index" on "checkout_form" ("organization_id");`);

    this.addSql(`create table "activity" (
      "id" uuid not null primary key,
      "organization_id" uuid not null references "organization" ("id") on delete cascade,
      "name" text not null,
      "description" text not null,
      "category_id" smallint not null check ("category_id" between 1 and 7),
      "level" text not null check ("level" in ('Beginner', 'Intermediate', 'Advanced')),
      "price_type" text not null default 'standard' check ("price_type" in ('standard', 'free')),
      "price_cents" integer not null default 0 check ("price_cents" >= 0),
      "capacity" integer not null check ("capacity" >= 1),
      "tools" text not null default '',
      "location_id" uuid not null references "location" ("id") on delete restrict,
      "instructor_id" uuid not null references "instructor" ("id") on delete restrict,
      "cancel_policy_id" smallint not null,
      "reschedule_policy_id" smallint not null,
      "activity_type" text not null default 'scheduled' check ("activity_type" in ('scheduled', 'appointment')),
      "single_party" boolean not null default false,
      "status" text not null default 'listed' check ("status" in ('listed', 'unlisted')),
      "form_collection_type" text not null default 'order' check ("form_collection_type" in ('order', 'ticket')),
      "required_form_id" uuid null references "checkout_form" ("id") on delete set null,
      "required_waiver_id" uuid null references "waiver_template" ("id") on delete set null,
      "buffer_before_mins" integer not null default 0,
      "buffer_after_mins" integer not null default 0,
      "min_notice_mins" integer not null default 0,
      "start_time_increments_mins" integer not null default 30,
      "duration_mins" integer not null default 60,
      "auto_email" text not null default '',
      "default_days" integer not null default 1,
      "default_days_apart" integer not null default 1,
      "default_daily_mins" integer not null default 60,
      "default_start_time" text not null default '12:00',
      "sync_with_eventbrite" boolean not null default false,
      "eventbrite_event_id" text null,
      "created_at" timestamptz not null default now(),
      "updated_at" timestamptz not null default now());`);
    this.addSql(`create index "activity_organization_id_index" on "activity" ("organization_id", "created_at");`);

    this.addSql(`create table "activity_image" (
      "id" uuid not null primary key,
      "activity_id" uuid not null references "activity" ("id") on delete cascade,
      "media_id" uuid not null references "media" ("id") on delete restrict,
      "position" smallint not null);`);
    this.addSql(`create index "activity_image_activity_id_index" on "activity_image" ("activity_id", "position");`);

    this.addSql(`create table "event" (
      "id" uuid not null primary key,
      "organization_id" uuid not null references "organization" ("id") on delete cascade,
      "activity_id" uuid not null references "activity" ("id") on delete restrict,
      "name" text not null,
      "internal_short_description" text null,
      "capacity" integer not null check ("capacity" >= 1),
      "price_cents" integer not null check ("price_cents" >= 0),
      "status" text not null default 'active',
      "is_featured" boolean not null default false,
      "is_special_event" boolean not null default false,
      "sync_with_eventbrite" boolean not null default false,
      "location_id" uuid not null references "location" ("id") on delete restrict,
      "instructor_id" uuid not null references "instructor" ("id") on delete restrict,
      "starts_at" timestamptz not null,
      "ends_at" timestamptz not null,
      "created_at" timestamptz not null default now(),
      "updated_at" timestamptz not null default now());`);
    this.addSql(`create index "event_activity_id_starts_at_index" on "event" ("activity_id", "starts_at");`);
    this.addSql(`create index "event_organization_id_starts_at_index" on "event" ("organization_id", "starts_at");`);

    this.addSql(`create table "event_day" (
      "id" uuid not null primary key,
      "event_id" uuid not null references "event" ("id") on delete cascade,
      "position" smallint not null,
      "start_date" date not null,
      "start_time" text not null,
      "duration_mins" integer not null check ("duration_mins" > 0),
      "starts_at" timestamptz not null,
      "ends_at" timestamptz not null);`);
    this.addSql(`create index "event_day_event_id_index" on "event_day" ("event_id", "position");`);
  }

  override async down(): Promise<void> {
    for (const table of ['event_day', 'event', 'activity_image', 'activity', 'checkout_form', 'media', 'waiver_template', 'instructor', 'location']) {
      this.addSql(`drop table if exists "${table}";`);
    }
  }
}
