import { Body, Controller, HttpCode, Post, Req } from '@nestjs/common';
import { ApiBadRequestResponse, ApiNoContentResponse, ApiOperation, ApiTags, ApiTooManyRequestsResponse, ApiUnauthorizedResponse } from '@nestjs/swagger';
import type { Request } from 'express';
import { ZodResponse } from 'nestjs-zod';
import { ErrorBodyDto } from '../../common/error-body.dto';
import { Ctx, RequestContext } from '../../common/request-context';
import { Auth } from './auth.guard';
import { AuthService } from './auth.service';
import { LoginDto, LoginResponseDto } from './identity.dto';
import { mapUser } from './users.service';

@ApiTags('auth')
@Controller('auth')
export class AuthController {
  constructor(private readonly auth: AuthService) {}

  @Post('login')
  @ApiOperation({ summary: 'Sign in with email and password; answers a session token' })
  @ZodResponse({ status: 200, type: LoginResponseDto })
  @ApiBadRequestResponse({ type: ErrorBodyDto })
  @ApiUnauthorizedResponse({ type: ErrorBodyDto, description: 'Invalid email or password' })
  @ApiTooManyRequestsResponse({ type: ErrorBodyDto })
  async login(@Body() body: LoginDto, @Req() request: Request) {
    const { token, user } = await this.auth.login(body, request.ip ?? 'unknown');
    return { token, user: mapUser(user) };
  }

  @Post('logout')
  @HttpCode(204)
  @Auth()
  @ApiOperation({ summary: 'Revoke the current session token' })
  @ApiNoContentResponse({ description: 'Signed out' })
  async logout(@Ctx() ctx: RequestContext): Promise<void> {
    await this.auth.logout(ctx);
  }
}
