import { Body, Controller, HttpCode, Post, Req, Res } from '@nestjs/common';
import { ApiNoContentResponse, ApiOperation, ApiTags, ApiTooManyRequestsResponse, ApiUnauthorizedResponse } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { isSecure, setCookie } from '../../web/http';
import { ZodResponse } from 'nestjs-zod';
import { ErrorBodyDto } from '../../common/error-body.dto';
import { Ctx, RequestContext } from '../../common/request-context';
import { Auth } from './auth.guard';
import { AuthService, validDeviceId } from './auth.service';
import { LoginDto, LoginResponseDto } from './identity.dto';
import { mapUser } from './users.service';
import { ApiInvalidBody, ApiUnexpectedBody } from '../../common/api-errors';

const DEVICE_COOKIE = 'studio_device';
const DEVICE_COOKIE_MAX_AGE_MS = 400 * 24 * 3600 * 1000;

function readCookie(request: FastifyRequest, name: string): string | undefined {
  for (const part of (request.headers.cookie ?? '').split(';')) {
    const at = part.indexOf('=');
    if (at > 0 && part.slice(0, at).trim() === name) return part.slice(at + 1).trim();
  }
  return undefined;
}

@ApiTags('auth')
@Controller('auth')
export class AuthController {
  constructor(private readonly auth: AuthService) {}

  @Post('login')
  @ApiOperation({ summary: 'Sign in with email and password; answers a session token', security: [] })
  @ZodResponse({ status: 200, type: LoginResponseDto })
  @ApiInvalidBody()
  @ApiUnauthorizedResponse({ type: ErrorBodyDto, description: 'Invalid email or password' })
  @ApiTooManyRequestsResponse({ type: ErrorBodyDto })
  async login(@Body() body: LoginDto, @Req() request: FastifyRequest, @Res({ passthrough: true }) response: FastifyReply) {
    const { token, user, deviceId } = await this.auth.login(
      body,
      // The TCP peer, or X-Forwarded-For's client only when the peer is one of TRUSTED_PROXIES.
      request.ip ?? 'unknown',
      validDeviceId(readCookie(request, DEVICE_COOKIE)),
    );
    // The device cookie marks this browser as one the account signed in with: its sign-ins get a
    // failed-attempt budget of their own (see LoginRateLimiter). Only sent back to /api/auth.
    setCookie(response, DEVICE_COOKIE, deviceId, {
      httpOnly: true,
      sameSite: 'strict',
      secure: isSecure(request),
      path: '/api/auth',
      maxAge: DEVICE_COOKIE_MAX_AGE_MS,
    });
    return { token, user: mapUser(user) };
  }

  @Post('logout')
  @HttpCode(204)
  @Auth()
  @ApiOperation({ summary: 'Revoke the current session token' })
  @ApiNoContentResponse({ description: 'Signed out' })
  @ApiUnexpectedBody()
  async logout(@Ctx() ctx: RequestContext): Promise<void> {
    await this.auth.logout(ctx);
  }

  @Post('logout-all')
  @HttpCode(204)
  @Auth()
  @ApiOperation({ summary: "Sign out everywhere: revoke every session of the caller's account, this one included" })
  @ApiNoContentResponse({ description: 'Every session of the account signed out' })
  @ApiUnexpectedBody()
  async logoutEverywhere(@Ctx() ctx: RequestContext): Promise<void> {
    await this.auth.logoutEverywhere(ctx);
  }
}
