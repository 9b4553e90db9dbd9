import { Migration } from '@mikro-orm/migrations';

/**
 * The online store (issue 21): each organization's store address, `slug`, unique and editable in
 * Settings → Organization; its store lives at PUBLIC_APP_URL/s/{slug} unless `public_url` names the
 * studio's own site. Existing organizations get one from their name (duplicates take a suffix from
 * their id); new ones get theirs from slugify() in @studio/contracts.
 */
export class Migration20261127000000_store_slug extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "organization" add column "slug" text null;`);
    this.addSql(`
      with named as (
        select id, created_at,
               left(trim(both '-' from regexp_replace(lower(name), '[^a-z0-9]+', '-', 'g')), 36) as base
          from "organization"
      ), based as (
        select id, created_at,
               case
                 when length(trim(both '-' from base)) < 2 then 'studio'
                 when trim(both '-' from base) in ('admin', 'api', 'mfe', 'docs', 'checkout', 'activity', 'static', 'assets')
                   then trim(both '-' from base) || '-studio'
                 else trim(both '-' from base)
               end as base
          from named
      ), ranked as (
        select id, base, row_number() over (partition by base order by created_at, id) as n from based
      )
      update "organization" o
         set "slug" = case when r.n = 1 then r.base else r.base || '-' || left(replace(o.id::text, '-', ''), 6) end
        from ranked r
       where r.id = o.id;`);
    this.addSql(`alter table "organization" alter column "slug" set not null;`);
    this.addSql(
      `alter table "organization" add constraint "organization_slug_check" check ("slug" ~ '^[a-z0-9][a-z0-9-]{0,38}[a-z0-9]$' and "slug" !~ '--');`,
    );
    this.addSql(`create unique index "organization_slug_unique" on "organization" ("slug");`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "organization" drop column "slug";`);
  }
}
