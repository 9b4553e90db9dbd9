import { Migration } from '@mikro-orm/migrations';

/**
 * Indexes of the Courses list (search, sort and paging in SQL): a substring search on the name
 * ("%clay%") uses a trigram index; each sort reads a page off a b-tree index ending in the id.
 * The created_at sort uses "activity_organization_id_index" of the catalog migration.
 */
export class Migration20261122110000_course_list extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create extension if not exists pg_trgm;`);
    this.addSql(`create index "activity_name_trgm" on "activity" using gin ((lower("name")) gin_trgm_ops);`);
    this.addSql(`create index "activity_organization_name_index" on "activity" ("organization_id", (lower("name")), "id");`);
    this.addSql(`create index "activity_organization_price_index" on "activity" ("organization_id", "price_cents", "id");`);
    this.addSql(`create index "activity_organization_capacity_index" on "activity" ("organization_id", "capacity", "id");`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop index if exists "activity_organization_capacity_index";`);
    this.addSql(`drop index if exists "activity_organization_price_index";`);
    this.addSql(`drop index if exists "activity_organization_name_index";`);
    this.addSql(`drop index if exists "activity_name_trgm";`);
  }
}
