import { EntityManager } from '@mikro-orm/postgresql';
import { Injectable, Logger } from '@nestjs/common';
import { formatZonedDateTime, storeLinks } from '@studio/contracts';
import { MailService } from '../notifications/mail.service';
import { mailSubject, oneLine } from '../notifications/mail-compose';
import { OrganizationsService } from '../organizations/organizations.service';
import { WaitlistClaimTokens } from './waitlist-claim-token';
import { WaitlistEntry } from './waitlist-entry.entity';
import { waitlistSession, WaitlistSessionRow } from './waitlist-session.query';

const party = (n: number) => (n === 1 ? '1 seat' : `${n} seats`);
const hours = (n: number) => (n === 1 ? '1 hour' : `${n} hours`);
const when = (s: WaitlistSessionRow) => formatZonedDateTime(s.starts_at, s.timezone);

/**
 * The waitlist's mails (issue 23), each once per occasion (its dedupe key): the place confirmed on
 * joining, the claim link of an offer (its token derived again here: WaitlistClaimTokens), and the
 * session's cancellation to the parties still waiting.
 */
@Injectable()
export class WaitlistMails {
  private readonly logger = new Logger('Waitlist');

  constructor(
    private readonly em: EntityManager,
    private readonly mail: MailService,
    private readonly organizations: OrganizationsService,
    private readonly claimTokens: WaitlistClaimTokens,
  ) {}

  /**
   * waitlist.joined: the party's place confirmed, once (its dedupe key). Asked again with the same
   * email (`again`), the entry's owner is told they are already waiting, at most once per entry: the
   * store answered that asker as it answers anyone (issue 31).
   */
  async joined(organizationId: string, entryId: string, again = false): Promise<void> {
    const em = this.em.fork();
    const entry = await em.findOne(WaitlistEntry, { id: entryId, organizationId });
    if (!entry || entry.status === 'removed') return;
    const session = await waitlistSession(em, organizationId, entry.eventId);
    if (!session) return;
    const [{ ahead }] = await em.execute<{ ahead: string }[]>(
      `select count(*) as ahead from waitlist_entry where event_id = ? and status in ('waiting', 'offered') and position < ?`,
      [entry.eventId, entry.position],
    );
    await this.mail.enqueue({
      to: entry.email,
      subject: mailSubject`${again ? "You're already on the waitlist" : "You're on the waitlist"}: ${session.name}`,
      text: [
        `Hello ${oneLine(entry.name)},`,
        '',
        ...(again ? ['Someone asked to join this waitlist again with your email. Nothing changed: your place is kept.', ''] : []),
        `You're on the waitlist for ${session.name} (${party(entry.partySize)}).`,
        `When: ${when(session)}`,
        `Your place: number ${Number(ahead) + 1} in line.`,
        '',
        `If seats free up, we'll email you a link to claim them. They are then held for you for ${hours(session.claim_hours)}.`,
        '',
        session.organization_name,
      ].join('\n'),
      dedupeKey: `${again ? 'waitlist-joined-again' : 'waitlist-joined'}:${entry.id}`,
    });
  }

  /**
   * waitlist.offered: the claim link, once per offer; nothing once the offer is over. The token is
   * derived from the entry and its offer's instant; `legacyToken` is the one an announcement written
   * before tokens were derived carried (used only when its hash is the entry's).
   */
  async offer(organizationId: string, entryId: string, legacyToken?: string): Promise<void> {
    const em = this.em.fork();
    const entry = await em.findOne(WaitlistEntry, { id: entryId, organizationId });
    if (!entry || entry.status !== 'offered' || !entry.offeredAt || !entry.claimTokenHash) return;
    const derived = await this.claimTokens.tokenFor(entry.id, entry.offeredAt);
    const token = WaitlistClaimTokens.matches(entry.claimTokenHash, derived)
      ? derived
      : legacyToken && WaitlistClaimTokens.matches(entry.claimTokenHash, legacyToken)
        ? legacyToken
        : null;
    if (!token) {
      // The key changed between the offer and its mail (BOOKING_LINK_SECRET set or changed): no link to send.
      this.logger.error(`Waitlist entry ${entry.id}: its claim token cannot be derived again (the server key changed?); no offer mail sent`);
      return;
    }
    const session = await waitlistSession(em, organizationId, entry.eventId);
    if (!session) return;
    const store = this.organizations.appStoreUrl({ slug: session.slug });
    const link = storeLinks.claim(store, entry.eventId, token);
    await this.mail.enqueue({
      to: entry.email,
      subject: mailSubject`A seat is free: ${session.name}`,
      text: [
        `Hello ${oneLine(entry.name)},`,
        '',
        `Good news: ${entry.partySize === 1 ? 'a seat is' : `${entry.partySize} seats are`} free in ${session.name}, and held for you.`,
        `When: ${when(session)}`,
        '',
        'Claim and book them here:',
        link,
        '',
        `They are held for you until ${formatZonedDateTime(entry.offeredUntil!, session.timezone)}. After that the offer ends and the next person on the waitlist is offered them.`,
        '',
        session.organization_name,
      ].join('\n'),
      dedupeKey: `waitlist-offer:${entry.id}:${entry.offeredAt.getTime()}`,
    });
  }

  /** The session was cancelled by the studio: each party still waiting or offered is told. */
  async sessionCancelled(entries: WaitlistEntry[], session: WaitlistSessionRow, reason: string): Promise<void> {
    for (const entry of entries)
      await this.mail.enqueue({
        to: entry.email,
        subject: mailSubject`Cancelled: ${session.name}`,
        text: [
          `Hello ${oneLine(entry.name)},`,
          '',
          `${session.name} (${when(session)}) was cancelled by the studio, so its waitlist is closed and you will not be offered a seat.`,
          ...(reason.trim() ? ['', `The studio says: ${reason.trim()}`] : []),
          '',
          session.organization_name,
        ].join('\n'),
        dedupeKey: `waitlist-cancelled:${entry.id}`,
      });
  }
}
