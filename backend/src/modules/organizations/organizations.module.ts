import { MikroOrmModule } from '@mikro-orm/nestjs';
import { Module } from '@nestjs/common';
import { Organization } from './organization.entity';
import { OrgController, SessionController, SuperAdminController } from './organizations.controller';
import { OrganizationsService } from './organizations.service';

/** Tenancy: organizations, the session's organization, and the super admin switch. */
@Module({
  imports: [MikroOrmModule.forFeature([Organization])],
  controllers: [SessionController, OrgController, SuperAdminController],
  providers: [OrganizationsService],
  exports: [OrganizationsService],
})
export class OrganizationsModule {}
