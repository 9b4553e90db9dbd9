/*
 * The payment links' queue: its name and jobs (a link's expiry, a checkout's page deadline), the
 * expiry job's payload, and the hash an admin's Idempotency-Key is kept under.
 */
import { createHash } from 'node:crypto';
import { RequestContext } from '../../common/request-context';

export const PAYMENT_LINK_QUEUE = 'payment-links';
export const EXPIRE_LINK_JOB = 'expire-link';
/** The page deadline: a pending order still without a payment page this long after its hold releases it. */
export const PAGE_DEADLINE_JOB = 'page-deadline';
/** The expiry job runs this long after the link's expiry, so the provider has marked it expired too. */
export const EXPIRY_GRACE_MS = 5_000;

/** The expiry job's payload: ids only. */
export interface ExpireLinkJob {
  orderId: string;
  organizationId: string;
}

/** An admin's send with an Idempotency-Key, hashed per admin: the order its first call made is found by it. */
export const linkRequestHash = (ctx: RequestContext, clientKey: string | undefined) =>
  clientKey
    ? createHash('sha256')
        .update(`payment-link:${ctx.userId ?? ''}:${clientKey}`)
        .digest('hex')
    : null;
