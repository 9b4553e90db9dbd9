import { Migration } from '@mikro-orm/migrations';

/**
 * Whether a student's own text (first and last name, email, phone) is plain for a CSV export: no
 * cell the formula rule (neutraliseCsvCell in libs/contracts) would change. Kept by PostgreSQL on
 * every write, so the enrollment export checks one boolean per row and runs the rule only for the
 * few rows that need it (issue 12: the export within 1.5x of COPY). The condition is the rule's own
 * cheap test on every cell (no , or ; and a first character that is neither a formula character
 * nor a space), or for the phone its phone shape (an optional +, digits, spaces, ( ) . - with 7
 * digits or more). False only means "run the rule", never a different file.
 */
export class Migration20261123020000_student_csv_plain extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "student" add column "csv_plain" boolean generated always as (
      strpos("first_name" || "last_name" || "email", ',') = 0 and strpos("first_name" || "last_name" || "email", chr(59)) = 0
      and ascii("first_name") not in (9, 13, 32, 43, 45, 61, 64)
      and ascii("last_name") not in (9, 13, 32, 43, 45, 61, 64)
      and ascii("email") not in (9, 13, 32, 43, 45, 61, 64)
      and ("phone" is null
        or (strpos("phone", ',') = 0 and strpos("phone", chr(59)) = 0 and ascii("phone") not in (9, 13, 32, 43, 45, 61, 64))
        or ("phone" ~ '^\\+{0,1}[0-9][0-9 ().-]*[0-9]$' and length(translate("phone", '+ ().-', '')) >= 7))
    ) stored;`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "student" drop column "csv_plain";`);
  }
}
