import { MikroOrmModule } from '@mikro-orm/nestjs';
import { Module } from '@nestjs/common';
import { CatalogModule } from '../catalog/catalog.module';
import { OrganizationsModule } from '../organizations/organizations.module';
import { DiscountCode } from './discount-code.entity';
import { DiscountsController } from './discounts.controller';
import { DiscountsService } from './discounts.service';

/**
 * Discount (promo) codes. Courses are read through the catalog's exported service; orders (next
 * issue) count a code's use through DiscountsService.incrementUsage and price with discountCents
 * from libs/contracts.
 */
@Module({
  imports: [MikroOrmModule.forFeature([DiscountCode]), CatalogModule, OrganizationsModule],
  controllers: [DiscountsController],
  providers: [DiscountsService],
  exports: [DiscountsService],
})
export class DiscountsModule {}
