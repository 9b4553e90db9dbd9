import { Controller, Get, Param, Post, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Response } from 'express';
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

function sessionPage(session: DemoCheckoutSession, receiptPath: string | null): string {
  const title = session.mode === 'setup' ? 'Add a payment method' : 'Pay';
  if (session.status !== 'open') {
    const said = {
      paid: session.mode === 'setup' ? 'The demo card is saved.' : 'This payment is complete.',
      cancelled: 'This payment was cancelled.',
      expired: 'This payment link has expired.',
    }[session.status];
    const receipt = receiptPath ? `<p><a href="${escapeHtml(receiptPath)}">View receipt</a></p>` : '';
    return page(title, `<h1>${escapeHtml(title)}</h1><p>${said}</p>${receipt}`);
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

/**
 * The demo provider's pages, public (the payer has no account): the payment link, its Pay and Cancel,
 * and the receipt. Served only while the demo provider is the one in use; HTML, so not in the API
 * document.
 */
@ApiExcludeController()
@Controller('pay/demo')
export class DemoPaymentPagesController {
  constructor(private readonly payments: PaymentsPort) {}

  private demo(res: Response): DemoPaymentsAdapter | null {
    if (this.payments instanceof DemoPaymentsAdapter) return this.payments;
    this.notFound(res);
    return null;
  }

  private html(res: Response, status: number, body: string): void {
    res.status(status).type('html').setHeader('Cache-Control', 'no-store').send(body);
  }

  private notFound(res: Response): void {
    this.html(res, 404, page('Not found', '<h1>Payment not found</h1><p>This payment link does not exist.</p>'));
  }

  @Get('receipt/:payment_id')
  async receipt(@Param('payment_id') paymentId: string, @Res() res: Response): Promise<void> {
    const demo = this.demo(res);
    if (!demo) return;
    const found = await demo.paymentForReceipt(paymentId);
    if (!found) return this.notFound(res);
    const { payment, refunds, session } = found;
    const lines = (session?.lines ?? [])
      .map((l) => `<tr><td>${escapeHtml(l.name)}${l.quantity > 1 ? ` × ${l.quantity}` : ''}</td><td class="amount">${money(l.unitAmountCents * l.quantity, payment.currency)}</td></tr>`)
      .join('');
    const refundRows = refunds
      .map((r) => `<tr><td>Refund, ${escapeHtml(r.createdAt.toISOString().slice(0, 10))}</td><td class="amount">−${money(r.amountCents, payment.currency)}</td></tr>`)
      .join('');
    this.html(
      res,
      200,
      page(
        'Receipt',
        `<h1>Receipt</h1><p>Payment ${escapeHtml(payment.id)}, ${escapeHtml(payment.createdAt.toISOString().slice(0, 10))}</p>
<table>${lines}<tr class="total"><td>Paid</td><td class="amount">${money(payment.amountCents, payment.currency)}</td></tr>${refundRows}</table>`,
      ),
    );
  }

  @Get(':session_id')
  async show(@Param('session_id') sessionId: string, @Res() res: Response): Promise<void> {
    const demo = this.demo(res);
    if (!demo) return;
    const session = await demo.sessionForPage(sessionId);
    if (!session) return this.notFound(res);
    this.html(res, 200, sessionPage(session, session.paymentId ? demoPaths.receipt(session.paymentId) : null));
  }

  /** Pay, then on to the order's success page (a payment link no longer open shows its state). */
  @Post(':session_id/pay')
  async pay(@Param('session_id') sessionId: string, @Res() res: Response): Promise<void> {
    const demo = this.demo(res);
    if (!demo) return;
    const session = await demo.pay(sessionId);
    if (!session) return this.notFound(res);
    res.redirect(303, session.status === 'paid' ? session.successUrl : demoPaths.session(session.id));
  }

  @Post(':session_id/cancel')
  async cancel(@Param('session_id') sessionId: string, @Res() res: Response): Promise<void> {
    const demo = this.demo(res);
    if (!demo) return;
    const session = await demo.cancel(sessionId);
    if (!session) return this.notFound(res);
    res.redirect(303, session.status === 'cancelled' ? session.cancelUrl : demoPaths.session(session.id));
  }
}
