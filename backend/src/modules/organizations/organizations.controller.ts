import { Body, Controller, Get, Put } from '@nestjs/common';
import { ApiConflictResponse, ApiNotFoundResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ZodResponse } from 'nestjs-zod';
import { ErrorBodyDto } from '../../common/error-body.dto';
import { Ctx, RequestContext } from '../../common/request-context';
import { Auth } from '../identity/auth.guard';
import { mapUser, UsersService } from '../identity/users.service';
import {
  OrganizationListDto,
  OrgSettingsDto,
  StoreSettingsDto,
  ReminderSettingsDto,
  WaitlistSettingsDto,
  SessionDto,
  SuperAdminUserDto,
  SwitchOrganizationDto,
} from './organizations.dto';
import { OrganizationsService } from './organizations.service';
import { STORE_MESSAGES } from '@studio/contracts';
import { notFound } from '../../common/api-error';
import { ApiInvalidBody } from '../../common/api-errors';

@ApiTags('auth')
@Controller('auth')
export class SessionController {
  constructor(
    private readonly organizations: OrganizationsService,
    private readonly users: UsersService,
  ) {}

  @Get('session')
  @Auth()
  @ApiOperation({ summary: 'The signed-in user and the organization it administers' })
  @ZodResponse({ status: 200, type: SessionDto })
  async session(@Ctx() ctx: RequestContext) {
    const user = await this.users.findById(ctx.userId);
    if (!user) throw notFound();
    return {
      user: mapUser(user, ctx.organizationId),
      organization: await this.organizations.describe(await this.organizations.current(ctx)),
    };
  }
}

@ApiTags('organization')
@Controller('admin/org')
export class OrgController {
  constructor(private readonly organizations: OrganizationsService) {}

  @Get()
  @Auth()
  @ApiOperation({ summary: "The caller's organization" })
  @ZodResponse({ status: 200, type: OrgSettingsDto })
  async get(@Ctx() ctx: RequestContext) {
    return this.organizations.settings(ctx);
  }

  @Put('store')
  @Auth('owner', 'super_admin')
  @ApiOperation({
    summary: "Settings → Organization: the store's address (slug) and, optionally, the studio's own site",
    description:
      'The store lives at PUBLIC_APP_URL/s/{slug}, or at public_url when set; share links, Preview and payment links follow. A slug another studio has answers 409.',
  })
  @ApiInvalidBody()
  @ApiConflictResponse({ type: ErrorBodyDto, description: STORE_MESSAGES.slugTaken })
  @ZodResponse({ status: 200, type: OrgSettingsDto })
  async updateStore(@Ctx() ctx: RequestContext, @Body() body: StoreSettingsDto) {
    await this.organizations.updateStore(ctx, body);
    return this.organizations.settings(ctx);
  }

  @Put('reminders')
  @Auth('owner', 'super_admin')
  @ApiOperation({
    summary: 'Settings → Organization: when reminder mails go before a class or appointment',
    description:
      'reminder_offsets_mins: minutes before the start (at most 3, each 15 minutes to 14 days; empty turns reminders off). Bookings made or moved from now on follow them.',
  })
  @ApiInvalidBody()
  @ZodResponse({ status: 200, type: OrgSettingsDto })
  async updateReminders(@Ctx() ctx: RequestContext, @Body() body: ReminderSettingsDto) {
    await this.organizations.updateReminders(ctx, body);
    return this.organizations.settings(ctx);
  }

  @Put('waitlist')
  @Auth('owner', 'super_admin')
  @ApiOperation({
    summary: 'Settings → Organization: how long a waitlist offer holds its seats',
    description:
      'waitlist_claim_hours: 1 to 168 hours (12 by default). When seats of a sold-out session free up, the first waiting party that fits is mailed a claim link and the seats are held for it this long; offers made from now on follow it.',
  })
  @ApiInvalidBody()
  @ZodResponse({ status: 200, type: OrgSettingsDto })
  async updateWaitlist(@Ctx() ctx: RequestContext, @Body() body: WaitlistSettingsDto) {
    await this.organizations.updateWaitlist(ctx, body);
    return this.organizations.settings(ctx);
  }
}

@ApiTags('super-admin')
@Controller('super-admin')
@Auth('super_admin')
export class SuperAdminController {
  constructor(
    private readonly organizations: OrganizationsService,
    private readonly users: UsersService,
  ) {}

  @Get('user')
  @ApiOperation({ summary: 'The super admin account and the organization it administers' })
  @ZodResponse({ status: 200, type: SuperAdminUserDto })
  async user(@Ctx() ctx: RequestContext) {
    const user = await this.users.findById(ctx.userId);
    if (!user) throw notFound();
    return mapUser(user, ctx.organizationId);
  }

  @Get('organization')
  @ApiOperation({ summary: 'Every organization, sorted by name' })
  @ZodResponse({ status: 200, type: OrganizationListDto })
  async organizationList() {
    const organizations = await this.organizations.listAll();
    return {
      organizations: organizations.map((o) => ({ organization_id: o.id, name: o.name, timezone: o.timezone })),
    };
  }

  @Put('user')
  @ApiOperation({ summary: 'Switch the organization the super admin administers in this session (other sessions keep theirs)' })
  @ZodResponse({ status: 200, type: SuperAdminUserDto })
  @ApiInvalidBody()
  @ApiNotFoundResponse({ type: ErrorBodyDto })
  async switchOrganization(@Ctx() ctx: RequestContext, @Body() body: SwitchOrganizationDto) {
    const { user, organizationId } = await this.organizations.switchOrganization(ctx, body.org_id);
    return mapUser(user, organizationId);
  }
}
