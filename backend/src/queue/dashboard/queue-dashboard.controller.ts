import { Controller, Get, HttpCode, Inject, Post, Query, Req, Res } from '@nestjs/common';
import { ApiExcludeEndpoint, ApiOkResponse, ApiOperation, ApiServiceUnavailableResponse, ApiTags } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { setCookie } from '../../web/http';
import { z } from 'zod';
import { ApiUnexpectedBody } from '../../common/api-errors';
import { ErrorBodyDto } from '../../common/error-body.dto';
import { TOKEN_HEADER } from '@studio/contracts';
import { createZodDto } from '../../common/zod-dto';
import { Auth } from '../../modules/identity/auth.guard';
import { DASHBOARD_COOKIE, DASHBOARD_ROUTE, QueueDashboardGate } from './queue-dashboard.gate';

class DashboardLinkDto extends createZodDto(
  z.object({
    url: z.string().max(300).describe('one-time link (valid 60 s) that opens the dashboard in a browser'),
    expires_in: z.number().int().describe('seconds the link stays valid'),
  }),
) {}

/**
 * The queue dashboard (bull-board) is an HTML app, so it cannot send our `token` header. A super
 * admin asks for a one-time link here (with the token); opening it swaps the ticket for an
 * httpOnly, SameSite=Strict cookie scoped to the dashboard's path, holding a dashboard session that
 * re-checks the caller's API session and role on every request.
 */
@ApiTags('queues')
@Controller('admin/queue-dashboard')
export class QueueDashboardController {
  constructor(@Inject(QueueDashboardGate) private readonly gate: QueueDashboardGate) {}

  @Post('link')
  @HttpCode(200)
  @Auth('super_admin')
  @ApiOperation({
    summary:
      'Super admins: a one-time link (60 s) to the BullMQ queue dashboard at /api/admin/queues; 503 when jobs run in-process (no Redis)',
  })
  @ApiOkResponse({ type: DashboardLinkDto })
  @ApiUnexpectedBody()
  @ApiServiceUnavailableResponse({ type: ErrorBodyDto, description: 'The queue runs in-process: no dashboard' })
  async link(@Req() req: FastifyRequest) {
    // The session's own token (already checked by @Auth), read from the request rather than as a
    // declared parameter: the typed client sends it on every call.
    const ticket = await this.gate.issueTicket(String(req.headers[TOKEN_HEADER] ?? ''));
    return { url: `/api/admin/queue-dashboard/enter?ticket=${ticket}`, expires_in: 60 };
  }

  @Get('enter')
  // A browser redirect into the dashboard, not an API call: left out of the OpenAPI document
  // (test/platform.e2e-spec.ts names it as the one such route).
  @ApiExcludeEndpoint()
  async enter(@Query('ticket') ticket: unknown, @Res() res: FastifyReply) {
    const session = typeof ticket === 'string' ? await this.gate.redeemTicket(ticket) : null;
    if (!session) {
      void res.status(401).send({ statusCode: 401, message: 'This dashboard link has expired or was already used.' });
      return;
    }
    setCookie(res, DASHBOARD_COOKIE, session, {
      httpOnly: true,
      sameSite: 'strict',
      secure: this.gate.secureCookies,
      path: `/api${DASHBOARD_ROUTE}`,
      maxAge: 30 * 60 * 1000,
    });
    void res.redirect(`/api${DASHBOARD_ROUTE}`, 302);
  }
}
