import { MikroOrmModule } from '@mikro-orm/nestjs';
import { Global, Module } from '@nestjs/common';
import { AuthSession } from './auth-session.entity';
import { AuthController } from './auth.controller';
import { AuthGuard } from './auth.guard';
import { AuthService } from './auth.service';
import { TeamController } from './team.controller';
import { LoginRateLimiter } from './login-rate-limiter';
import { User } from './user.entity';
import { UsersService } from './users.service';

/** Users, passwords, sessions and roles. Global so every module can guard its routes with @Auth(). */
@Global()
@Module({
  imports: [MikroOrmModule.forFeature([User, AuthSession])],
  controllers: [AuthController, TeamController],
  providers: [AuthService, AuthGuard, LoginRateLimiter, UsersService],
  exports: [AuthService, AuthGuard, UsersService],
})
export class IdentityModule {}
