import { applyDecorators, Controller, Get, Header, Inject, Param, Post, Req, Res } from '@nestjs/common';
import { ApiBadRequestResponse, ApiBody, ApiConsumes, ApiExcludeEndpoint, ApiExtraModels, ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiParam, ApiPayloadTooLargeResponse, ApiProduces, ApiTags, getSchemaPath } from '@nestjs/swagger';
import { demoSignatureSchema, formatDateTime, WAIVER_MESSAGES as M, WAIVER_SIGNED_EVENT } from '@studio/contracts';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { preferredType, sendHtml } from '../../../web/http';
import { ErrorBody } from '../../../common/api-error';
import { ErrorBodyDto } from '../../../common/error-body.dto';
import { APP_CONFIG } from '../../../config/config.module';
import { AppConfig } from '../../../config/config.schema';
import { WaiverSubmission } from '../waiver-submission.entity';
import { WaiverCompletionService } from '../waiver-completion.service';
import { DEMO_SUBMISSION_ID, demoSignPath } from './demo-esign.adapter';

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] as string);

/**
 * The one script of the signing pages (a file of this origin: the CSP forbids inline script). Framed
 * (in the store's checkout), it marks the page so it fits the frame, and on the signed page tells
 * the framing page the waiver is signed: a postMessage naming the one origin it trusts, the store's
 * (this app's public address, written on the page), so no other site framing the link learns of it.
 * The checkout then asks the store whether it is signed: the message only triggers that check.
 */
export const SIGNED_SCRIPT = `(function () {
  var root = document.documentElement;
  if (window.parent === window) return;
  root.className += ' framed';
  var signed = document.querySelector('[data-signed]');
  var origin = root.getAttribute('data-store-origin');
  if (signed && origin) window.parent.postMessage({ type: '${WAIVER_SIGNED_EVENT}' }, origin);
})();
`;
export const SIGNED_SCRIPT_PATH = '/api/sign/demo/signed.js';

/** Plain HTML with one script of this origin (SIGNED_SCRIPT): signing is a form post. */
function page(title: string, body: string, label: boolean, storeOrigin: string): string {
  return `<!doctype html>
<html lang="en" data-store-origin="${escapeHtml(storeOrigin)}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex"><title>${escapeHtml(title)}</title>
<style>
body{font-family:system-ui,sans-serif;background:#f5f5f5;margin:0;padding:2rem 1rem;color:#1f1f1f}
main{max-width:36rem;margin:0 auto;background:#fff;border-radius:8px;padding:1.5rem;box-shadow:0 1px 4px rgba(0,0,0,.1)}
.framed body{background:#fff;padding:0}
.framed main{box-shadow:none;padding:.75rem;max-width:none}
.framed h1{font-size:1.25rem;margin:.5rem 0}
.demo{background:#fffbe6;border:1px solid #ffe58f;border-radius:6px;padding:.5rem .75rem;font-weight:600}
.waiver{border:1px solid #eee;border-radius:6px;padding:.75rem 1rem;max-height:24rem;overflow:auto;white-space:pre-wrap;overflow-wrap:anywhere}
.framed .waiver{max-height:12rem}
.error{color:#cf1322}
label{display:block;margin:1rem 0 .25rem;font-weight:600}
input{font:inherit;padding:.5rem;border:1px solid #d9d9d9;border-radius:6px;width:100%;box-sizing:border-box}
button{font:inherit;margin-top:1rem;padding:.5rem 1.25rem;border-radius:6px;border:1px solid #1677ff;background:#1677ff;color:#fff;cursor:pointer;min-height:44px}
@media (max-width:420px){body{padding:1rem .5rem}main{padding:1rem}button{width:100%}}
</style><script src="${SIGNED_SCRIPT_PATH}" defer></script></head>
<body><main>${label ? `<p class="demo" role="note">${M.demoSigningPage}</p>` : ''}
${body}
</main></body></html>`;
}

function signingPage(submission: WaiverSubmission, template: { name: string; body: string; documentUrl?: string | null }, label: boolean, storeOrigin: string, error?: string): string {
  const text = `<div class="waiver">${escapeHtml(template.body || template.name)}</div>${
    template.documentUrl ? `<p><a href="${escapeHtml(template.documentUrl)}" target="_blank" rel="noopener">Read the document</a></p>` : ''
  }`;
  if (submission.status === 'completed') {
    // Anyone holding the link sees this page: it says that, by whom and when it was signed, never
    // the address it was signed from (kept in signer_ip for the record only).
    // The product's one date format (libs/contracts time.ts); a provider's page knows no studio zone: UTC, named.
    const when = submission.completedAt ? `${formatDateTime(submission.completedAt, 'UTC', { viewerZones: [] })} UTC` : '';
    return page(
      template.name,
      `<h1>${escapeHtml(template.name)}</h1>${text}
<p data-signed="true" role="status"><strong>Signed</strong> by ${escapeHtml(submission.signerName ?? '')} on ${escapeHtml(when)}.</p>`,
      label,
      storeOrigin,
    );
  }
  if (submission.status === 'expired') return page(template.name, `<h1>${escapeHtml(template.name)}</h1><p>This signature request has expired.</p>`, label, storeOrigin);
  return page(
    template.name,
    `<h1>${escapeHtml(template.name)}</h1>${text}
<form method="post" action="${demoSignPath(submission.providerSubmissionId ?? '')}">
<label for="signer_name">Type your full name to sign</label>
<input id="signer_name" name="signer_name" autocomplete="name" maxlength="200" required${error ? ' aria-invalid="true" aria-describedby="signer_error"' : ''}>
${error ? `<p class="error" id="signer_error" role="alert">${escapeHtml(error)}</p>` : ''}
<button type="submit">Sign</button>
</form>`,
    label,
    storeOrigin,
  );
}

const HTML = { 'text/html': { schema: { type: 'string' as const } } };
const SUBMISSION_ID = ApiParam({ name: 'submission_id', description: 'dsub_ followed by 32 hex digits', schema: { type: 'string', pattern: '^dsub_[a-f0-9]{32}$' } });
const htmlPage = (summary: string) =>
  applyDecorators(
    ApiOperation({ summary, security: [] }),
    ApiProduces('text/html'),
    ApiOkResponse({ description: 'The page', content: HTML }),
    ApiNotFoundResponse({
      description: 'No such signature request: a page for a browser, the error body otherwise',
      content: { ...HTML, 'application/json': { schema: { $ref: getSchemaPath(ErrorBodyDto) } } },
    }),
  );

/**
 * The embedded signing page (the default e-signature provider), public: the student reads the
 * waiver and signs by typing their name; completion is recorded with the time and the signer's
 * address (stored, never shown on this public page). Labelled "Demo signing page" unless WAIVER_EMBEDDED_SIGNING makes it the configured provider.
 */
@ApiTags('waivers')
@ApiExtraModels(ErrorBodyDto)
@Controller('sign/demo')
export class DemoSigningController {
  constructor(
    private readonly waivers: WaiverCompletionService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  private get label(): boolean {
    return !this.config.WAIVER_EMBEDDED_SIGNING;
  }

  /** The store's origin (this app's public address), the one the signed page tells when framed. */
  private get storeOrigin(): string {
    return new URL(this.config.PUBLIC_APP_URL ?? `http://localhost:${this.config.PORT}`).origin;
  }

  @Get('signed.js')
  @ApiExcludeEndpoint()
  @Header('Content-Type', 'text/javascript; charset=utf-8')
  @Header('Cache-Control', 'public, max-age=300')
  signedScript(): string {
    return SIGNED_SCRIPT;
  }

  private html(res: FastifyReply, status: number, body: string): void {
    sendHtml(res, status, body);
  }

  private notFound(req: FastifyRequest, res: FastifyReply): void {
    if (preferredType(req, ['json', 'html']) === 'html') {
      return this.html(res, 404, page('Not found', '<h1>Waiver not found</h1><p>This signing link does not exist.</p>', this.label, this.storeOrigin));
    }
    const body: ErrorBody = { statusCode: 404, message: M.submissionNotFound };
    void res.status(404).send(body);
  }

  @Get(':submission_id')
  @htmlPage('Embedded signing page: the waiver text and a name to type (labelled "Demo signing page")')
  @SUBMISSION_ID
  async show(@Param('submission_id') id: string, @Req() req: FastifyRequest, @Res() res: FastifyReply): Promise<void> {
    const found = DEMO_SUBMISSION_ID.test(id) ? await this.waivers.findDemo(id) : null;
    if (!found) return this.notFound(req, res);
    this.html(res, 200, signingPage(found.submission, found.template, this.label, this.storeOrigin));
  }

  @Post(':submission_id')
  @htmlPage('Embedded signing page: sign by typing your name; records the time and address; answers the signed page')
  @SUBMISSION_ID
  @ApiConsumes('application/x-www-form-urlencoded', 'application/json')
  @ApiBody({ schema: { type: 'object', required: ['signer_name'], properties: { signer_name: { type: 'string', minLength: 1, maxLength: 200 } }, additionalProperties: false } })
  @ApiBadRequestResponse({
    description: `No name typed ('${M.signerNameRequired}'), or a malformed body: the page again for a browser, the error body otherwise`,
    content: { ...HTML, 'application/json': { schema: { $ref: getSchemaPath(ErrorBodyDto) } } },
  })
  @ApiPayloadTooLargeResponse({ type: ErrorBodyDto, description: 'The body is over 1 MB' })
  async sign(@Param('submission_id') id: string, @Req() req: FastifyRequest, @Res() res: FastifyReply): Promise<void> {
    const found = DEMO_SUBMISSION_ID.test(id) ? await this.waivers.findDemo(id) : null;
    if (!found) return this.notFound(req, res);
    const parsed = demoSignatureSchema.safeParse(req.body ?? {});
    if (!parsed.success && found.submission.status === 'pending') {
      const message = parsed.error.issues[0]?.path[0] === 'signer_name' ? parsed.error.issues[0].message : M.signerNameRequired;
      if (preferredType(req, ['json', 'html']) === 'html') return this.html(res, 400, signingPage(found.submission, found.template, this.label, this.storeOrigin, message));
      const body: ErrorBody = { statusCode: 400, message, errors: { signer_name: message } };
      void res.status(400).send(body);
      return;
    }
    if (parsed.success) {
      await this.waivers.complete(found.submission.id, {
        completedAt: new Date(),
        submissionUrl: found.submission.signUrl ?? null,
        signerName: parsed.data.signer_name,
        signerIp: req.ip ?? null,
      });
    }
    const after = (await this.waivers.findDemo(id))!;
    this.html(res, 200, signingPage(after.submission, after.template, this.label, this.storeOrigin));
  }
}
