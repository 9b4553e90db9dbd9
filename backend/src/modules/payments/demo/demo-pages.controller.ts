import { applyDecorators, Controller, Get, Param, Post, Req, Res } from '@nestjs/common';
import { formatDate } from '@studio/contracts';
import { ApiExtraModels, ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiParam, ApiProduces, ApiResponse, ApiTags, getSchemaPath } from '@nestjs/swagger';
import { ApiUnexpectedBody } from '../../../common/api-errors';
import { ErrorBody } from '../../../common/api-error';
import { ErrorBodyDto } from '../../../common/error-body.dto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { preferredType, sendHtml } from '../../../web/http';
import { PaymentsPort } from '../payments.port';
import { DemoCheckoutSession } from './demo-ledger.entities';
import { DemoPaymentsAdapter, demoPaths } from './demo-payments.adapter';

export const DEMO_LABEL = 'Demo payment, no card is charged';

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] as string);
const money = (cents: number, currency: string) =>
  new Intl.NumberFormat('en-US', { style: 'currency', currency: currency.toUpperCase() }).format(cents / 100);

/** Plain HTML, no script at all (the CSP forbids inline script): Pay and Cancel are form posts. */
function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex"><title>${escapeHtml(title)}</title>
<style>
body{font-family:system-ui,sans-serif;background:#f5f5f5;margin:0;padding:2rem 1rem;color:#1f1f1f}
main{max-width:28rem;margin:0 auto;background:#fff;border-radius:8px;padding:1.5rem;box-shadow:0 1px 4px rgba(0,0,0,.1)}
.demo{background:#fffbe6;border:1px solid #ffe58f;border-radius:6px;padding:.5rem .75rem;font-weight:600}
table{width:100%;border-collapse:collapse;margin:1rem 0}td{padding:.25rem 0}td.amount{text-align:right}
tr.total td{border-top:1px solid #ddd;font-weight:600}
.actions{display:flex;gap:.5rem}.actions form{margin:0}
button{font:inherit;padding:.5rem 1.25rem;border-radius:6px;border:1px solid #d9d9d9;background:#fff;cursor:pointer}
button.primary{background:#1677ff;border-color:#1677ff;color:#fff}
</style></head>
<body><main><p class="demo" role="note">${DEMO_LABEL}</p>
${body}
</main></body></html>`;
}

/** The page of a link; after the payer's click it also offers the way back to the studio (`next`). */
function sessionPage(session: DemoCheckoutSession, receiptPath: string | null, next?: string): string {
  const title = session.mode === 'setup' ? 'Add a payment method' : 'Pay';
  if (session.status !== 'open') {
    const said = {
      paid: session.mode === 'setup' ? 'The demo card is saved.' : 'This payment is complete.',
      cancelled: 'This payment was cancelled.',
      expired: 'This payment link has expired.',
    }[session.status];
    const receipt = receiptPath ? `<p><a href="${escapeHtml(receiptPath)}">View receipt</a></p>` : '';
    const onward = next ? `<p><a href="${escapeHtml(next)}">Continue</a></p>` : '';
    return page(title, `<h1>${escapeHtml(title)}</h1><p>${said}</p>${receipt}${onward}`);
  }
  const rows =
    session.mode === 'setup'
      ? '<p>Saves the demo card Visa ending in 4242 for this studio.</p>'
      : `<table>${session.lines
          .map((l) => `<tr><td>${escapeHtml(l.name)}${l.quantity > 1 ? ` × ${l.quantity}` : ''}</td><td class="amount">${money(l.unitAmountCents * l.quantity, session.currency)}</td></tr>`)
          .join('')}<tr class="total"><td>Total</td><td class="amount">${money(session.amountCents, session.currency)}</td></tr></table>`;
  const base = demoPaths.session(session.id);
  return page(
    title,
    `<h1>${escapeHtml(title)}</h1>${rows}
<div class="actions">
<form method="post" action="${base}/pay"><button class="primary" type="submit">${session.mode === 'setup' ? 'Save card' : 'Pay'}</button></form>
<form method="post" action="${base}/cancel"><button type="submit">Cancel</button></form>
</div>`,
  );
}

/** Where Continue goes from a settled link: the studio's success address once paid, its cancel address otherwise. */
function onward(session: DemoCheckoutSession): string | undefined {
  if (session.status === 'open') return undefined;
  return session.status === 'paid' ? session.successUrl : session.cancelUrl;
}

const HTML = { 'text/html': { schema: { type: 'string' as const } } };
const SESSION_ID = ApiParam({ name: 'session_id', description: 'dcs_ followed by 32 hex digits', schema: { type: 'string', pattern: '^dcs_[a-f0-9]{32}$' } });
const htmlPage = (summary: string) =>
  applyDecorators(
    ApiOperation({ summary, security: [] }),
    ApiProduces('text/html'),
    ApiOkResponse({ description: 'The page', content: HTML }),
    ApiNotFoundResponse({
      description: 'No such link or receipt (or Stripe is the provider in use): a page for a browser, the error body otherwise',
      content: { ...HTML, 'application/json': { schema: { $ref: getSchemaPath(ErrorBodyDto) } } },
    }),
  );
/**
 * Pay and Cancel are plain form posts without fields: the browser sends an empty body, and one with
 * content is refused like any body sent to an action that takes none (BodilessActionGuard).
 */
const formPost = () =>
  applyDecorators(
    ApiUnexpectedBody(),
    ApiResponse({ status: 303, description: "A browser (Accept: text/html) is sent to the link's page, which shows the outcome (post/redirect/get)" }),
  );

/**
 * The demo provider's pages, public (the payer has no account): the payment link, its Pay and Cancel,
 * and the receipt. Plain HTML without script (the app's CSP holds); Pay and Cancel answer the page of
 * the outcome with a Continue link to the studio's success or cancel address. Served only while the
 * demo provider is the one in use.
 */
@ApiTags('payments')
@ApiExtraModels(ErrorBodyDto)
@Controller('pay/demo')
export class DemoPaymentPagesController {
  constructor(private readonly payments: PaymentsPort) {}

  private demo(req: FastifyRequest, res: FastifyReply): DemoPaymentsAdapter | null {
    if (this.payments instanceof DemoPaymentsAdapter) return this.payments;
    this.notFound(req, res);
    return null;
  }

  private html(res: FastifyReply, status: number, body: string): void {
    sendHtml(res, status, body);
  }

  /** A browser gets a page; any other client the API's one error body. */
  private notFound(req: FastifyRequest, res: FastifyReply): void {
    if (preferredType(req, ['json', 'html']) === 'html') {
      return this.html(res, 404, page('Not found', '<h1>Payment not found</h1><p>This payment link does not exist.</p>'));
    }
    const body: ErrorBody = { statusCode: 404, message: 'Payment not found' };
    void res.status(404).send(body);
  }

  @Get('receipt/:payment_id')
  @htmlPage('Demo provider: the receipt of a payment, with its refunds')
  @ApiParam({ name: 'payment_id', description: 'dpi_ followed by 32 hex digits', schema: { type: 'string', pattern: '^dpi_[a-f0-9]{32}$' } })
  async receipt(@Param('payment_id') paymentId: string, @Req() req: FastifyRequest, @Res() res: FastifyReply): Promise<void> {
    const demo = this.demo(req, res);
    if (!demo) return;
    const found = await demo.paymentForReceipt(paymentId);
    if (!found) return this.notFound(req, res);
    const { payment, refunds, session } = found;
    const lines = (session?.lines ?? [])
      .map((l) => `<tr><td>${escapeHtml(l.name)}${l.quantity > 1 ? ` × ${l.quantity}` : ''}</td><td class="amount">${money(l.unitAmountCents * l.quantity, payment.currency)}</td></tr>`)
      .join('');
    const refundRows = refunds
      .map((r) => `<tr><td>Refund, ${escapeHtml(formatDate(r.createdAt, 'UTC'))}</td><td class="amount">−${money(r.amountCents, payment.currency)}</td></tr>`)
      .join('');
    this.html(
      res,
      200,
      page(
        'Receipt',
        `<h1>Receipt</h1><p>Payment ${escapeHtml(payment.id)}, ${escapeHtml(formatDate(payment.createdAt, 'UTC'))}</p>
<table>${lines}<tr class="total"><td>Paid</td><td class="amount">${money(payment.amountCents, payment.currency)}</td></tr>${refundRows}</table>`,
      ),
    );
  }

  @Get(':session_id')
  @htmlPage('Demo provider: the payment link page ("Demo payment, no card is charged") with Pay and Cancel')
  @SESSION_ID
  async show(@Param('session_id') sessionId: string, @Req() req: FastifyRequest, @Res() res: FastifyReply): Promise<void> {
    const demo = this.demo(req, res);
    if (!demo) return;
    const session = await demo.sessionForPage(sessionId);
    if (!session) return this.notFound(req, res);
    // A settled link (a browser lands here after Pay or Cancel) shows its Continue link too.
    this.html(res, 200, sessionPage(session, session.paymentId ? demoPaths.receipt(session.paymentId) : null, onward(session)));
  }

  /**
   * The outcome of Pay or Cancel: a browser is sent to the link's page (post/redirect/get), so Back
   * or a reload never asks to send the form again (issue 25); another client gets the page itself.
   */
  private outcome(req: FastifyRequest, res: FastifyReply, session: DemoCheckoutSession): void {
    if (preferredType(req, ['json', 'html']) === 'html' && req.headers.accept?.includes('text/html')) {
      void res.status(303).header('location', demoPaths.session(session.id)).send();
      return;
    }
    this.html(res, 200, sessionPage(session, session.paymentId ? demoPaths.receipt(session.paymentId) : null, onward(session)));
  }

  /** Pay: records the payment (or the demo card) once; a link no longer open only shows its state. */
  @Post(':session_id/pay')
  @htmlPage('Demo provider: pay (or save the demo card); answers the page of the outcome')
  @SESSION_ID
  @formPost()
  async pay(@Param('session_id') sessionId: string, @Req() req: FastifyRequest, @Res() res: FastifyReply): Promise<void> {
    const demo = this.demo(req, res);
    if (!demo) return;
    const session = await demo.pay(sessionId);
    if (!session) return this.notFound(req, res);
    this.outcome(req, res, session);
  }

  /** Cancel: an open link becomes cancelled; otherwise only its state is shown. */
  @Post(':session_id/cancel')
  @htmlPage('Demo provider: cancel the payment; answers the page of the outcome')
  @SESSION_ID
  @formPost()
  async cancel(@Param('session_id') sessionId: string, @Req() req: FastifyRequest, @Res() res: FastifyReply): Promise<void> {
    const demo = this.demo(req, res);
    if (!demo) return;
    const session = await demo.cancel(sessionId);
    if (!session) return this.notFound(req, res);
    this.outcome(req, res, session);
  }
}
