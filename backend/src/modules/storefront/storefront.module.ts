import { Module } from '@nestjs/common';
import { OrganizationsModule } from '../organizations/organizations.module';
import { PublicRateLimitGuard } from './public-rate-limit.guard';
import { StorefrontController } from './storefront.controller';
import { StorefrontService } from './storefront.service';

/** The online store's public API (issue 21): reads now; the checkout comes with its own service. */
@Module({
  imports: [OrganizationsModule],
  controllers: [StorefrontController],
  providers: [StorefrontService, PublicRateLimitGuard],
  exports: [StorefrontService],
})
export class StorefrontModule {}
