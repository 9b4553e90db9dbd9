import { Controller, Get, Param } from '@nestjs/common';
import { ApiNotFoundResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ZodResponse } from 'nestjs-zod';
import { createZodDto } from '../../common/zod-dto';
import { z } from 'zod';
import { notFound } from '../../common/api-error';
import { ErrorBodyDto } from '../../common/error-body.dto';
import { Ctx, RequestContext } from '../../common/request-context';
import { UuidParamPipe } from '../../common/uuid-param.pipe';
import { Auth } from './auth.guard';
import { userSchema } from './identity.dto';
import { mapUser, UsersService } from './users.service';

class TeamMemberDto extends createZodDto(userSchema) {}
class TeamDto extends createZodDto(z.object({ users: z.array(userSchema) })) {}

/** The admins of the caller's organization (settings → team). */
@ApiTags('team')
@Controller('admin/users')
@Auth()
export class TeamController {
  constructor(private readonly users: UsersService) {}

  @Get()
  @ApiOperation({ summary: "The caller's organization's admin accounts, by name" })
  @ZodResponse({ status: 200, type: TeamDto })
  async list(@Ctx() ctx: RequestContext) {
    return { users: (await this.users.listForOrganization(ctx)).map((u) => mapUser(u)) };
  }

  @Get(':user_id')
  @ApiOperation({ summary: 'One admin account of the caller’s organization' })
  @ZodResponse({ status: 200, type: TeamMemberDto })
  @ApiNotFoundResponse({ type: ErrorBodyDto })
  async get(@Ctx() ctx: RequestContext, @Param('user_id', UuidParamPipe) userId: string) {
    const user = await this.users.findInOrganization(ctx, userId);
    if (!user) throw notFound('User not found');
    return mapUser(user);
  }
}
