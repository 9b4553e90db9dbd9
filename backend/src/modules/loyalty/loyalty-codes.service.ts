import { EntityManager } from '@mikro-orm/postgresql';
import { HttpStatus, Injectable, Logger } from '@nestjs/common';
import {
  CHECKOUT_MESSAGES as M,
  POINTS_CODE_DIGITS,
  POINTS_CODE_MAX_TRIES,
  POINTS_CODE_TTL_MINUTES,
  POINTS_TOKEN_TTL_MINUTES,
  pointsToCents,
  type PointsBalance,
} from '@studio/contracts';
import { createHash, randomBytes, randomInt, randomUUID } from 'node:crypto';
import { ApiError } from '../../common/api-error';
import { MailService } from '../notifications/mail.service';
import { mailSubject } from '../notifications/mail-compose';
import { StudentsService } from '../students/students.service';
import { LoyaltyLedgerService } from './loyalty-ledger.service';
import { LoyaltyService } from './loyalty.service';
import { Clock } from '../../common/clock';

/** At most this many codes are mailed to one student an hour (more asks are answered the same, unsent). */
const CODES_PER_HOUR = 5;

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
/** A code's hash is salted with its row's id, so equal codes never hash alike. */
const codeHash = (id: string, code: string) => sha256(`${id}:${code}`);
const wrongCode = () => new ApiError(HttpStatus.BAD_REQUEST, M.pointsCodeWrong, { code: M.pointsCodeWrong });

/**
 * A returning student proves the email at the store's checkout (issue 21, step 6): a one-time
 * 6-digit code mailed to it (only its salted hash is kept; void after 10 minutes or 5 wrong tries;
 * a newer code replaces it), then a random proof token (kept hashed, valid 30 minutes) that the
 * quote and checkout take to spend the student's points. Nothing here tells whether an email is a
 * student's: the code's ask always answers alike, and every failed check says the same.
 */
@Injectable()
export class LoyaltyCodesService {
  private readonly logger = new Logger('LoyaltyCodes');

  constructor(
    private readonly em: EntityManager,
    private readonly students: StudentsService,
    private readonly loyalty: LoyaltyService,
    private readonly ledger: LoyaltyLedgerService,
    private readonly mail: MailService,
    private readonly clock: Clock,
  ) {}

  /**
   * Mails a code when the email is a student's here and the programme is active, or the student
   * holds something that pays at the store (`holdsSomething`: a membership, pack, gift card or
   * credit, issue 24); otherwise nothing.
   */
  async requestCode(
    organization: { id: string; name: string },
    email: string,
    holdsSomething: (studentId: string) => Promise<boolean> = async () => false,
  ): Promise<void> {
    const student = await this.students.findByEmail(organization.id, email);
    if (!student) return;
    if (!(await this.loyalty.isActive(organization.id)) && !(await holdsSomething(student.id))) return;
    const code = String(randomInt(0, 10 ** POINTS_CODE_DIGITS)).padStart(POINTS_CODE_DIGITS, '0');
    const id = randomUUID();
    const inserted = await this.em.getConnection().execute<{ id: string }[]>(
      `insert into loyalty_code (id, organization_id, student_id, code_hash, attempts, expires_at, created_at)
       select ?, ?, ?, ?, 0, ?, ?
        where (select count(*) from loyalty_code
                where organization_id = ? and student_id = ? and created_at > ?) < ?
       returning id`,
      [
        id,
        organization.id,
        student.id,
        codeHash(id, code),
        this.clock.inMs(POINTS_CODE_TTL_MINUTES * 60_000),
        this.clock.now(),
        organization.id,
        student.id,
        this.clock.inMs(-3600_000),
        CODES_PER_HOUR,
      ],
    );
    if (inserted.length === 0) {
      this.logger.warn(
        `Points code not mailed to a student of ${organization.id}: ${CODES_PER_HOUR} this hour already`,
      );
      return;
    }
    await this.mail.enqueue({
      to: student.email,
      subject: mailSubject`Your points code for ${organization.name}`,
      text: [
        `Hello ${student.firstName},`,
        '',
        `Your code to use your points, passes and credit at ${organization.name}'s checkout: ${code}`,
        '',
        `It is valid for ${POINTS_CODE_TTL_MINUTES} minutes. If you did not ask for it, you can ignore this email.`,
      ].join('\n'),
      dedupeKey: `points-code:${id}`,
    });
  }

  /**
   * Checks the student's newest code: each try counts (the 5th wrong one voids it), a right one is
   * used up and gives the proof token and the balance. Any failure is the same 400.
   */
  async verify(organizationId: string, email: string, code: string): Promise<Omit<PointsBalance, 'holdings'>> {
    const student = await this.students.findByEmail(organizationId, email);
    if (!student) throw wrongCode();
    // The try is counted before the code is compared, atomically, so parallel tries cannot exceed the limit.
    const [row] = await this.em.getConnection().execute<{ id: string; code_hash: string }[]>(
      `update loyalty_code set attempts = attempts + 1
        where id = (select id from loyalty_code where organization_id = ? and student_id = ?
                     order by created_at desc, id desc limit 1)
          and proof_hash is null and expires_at > ? and attempts < ?
        returning id, code_hash`,
      [organizationId, student.id, this.clock.now(), POINTS_CODE_MAX_TRIES],
    );
    if (!row || codeHash(row.id, code) !== row.code_hash) throw wrongCode();
    const token = randomBytes(32).toString('base64url');
    const expiresAt = this.clock.inMs(POINTS_TOKEN_TTL_MINUTES * 60_000);
    const used = await this.em.getConnection().execute<{ id: string }[]>(
      `update loyalty_code set proof_hash = ?, proof_expires_at = ?, expires_at = ?
        where id = ? and proof_hash is null returning id`,
      [sha256(token), expiresAt, this.clock.now(), row.id],
    );
    if (used.length === 0) throw wrongCode();
    const points = await this.ledger.balance(organizationId, student.id);
    return {
      points_token: token,
      expires_at: expiresAt.toISOString(),
      points,
      value_cents: pointsToCents(points),
    };
  }

  /** The student a proof token was given to, while it is valid; null otherwise. */
  async studentForToken(organizationId: string, token: string): Promise<string | null> {
    const [row] = await this.em
      .getConnection()
      .execute<{ student_id: string }[]>(
        `select student_id from loyalty_code where organization_id = ? and proof_hash = ? and proof_expires_at > ?`,
        [organizationId, sha256(token), this.clock.now()],
      );
    return row?.student_id ?? null;
  }
}
