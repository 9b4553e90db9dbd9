import { MikroOrmModule } from '@mikro-orm/nestjs';
import { Module } from '@nestjs/common';
import { CatalogModule } from '../catalog/catalog.module';
import { Product } from './entities/product.entity';
import { ProductImage } from './entities/product-image.entity';
import { ProductPrice } from './entities/product-price.entity';
import { LoyaltyModule } from '../loyalty/loyalty.module';
import { ProductsController } from './products.controller';
import { ProductsService } from './products.service';

/**
 * Products (spec 000 §3) and their price history. Images are uploaded media of the catalog
 * (through MediaService); whether points may be earned is the loyalty module's answer.
 */
@Module({
  imports: [MikroOrmModule.forFeature([Product, ProductImage, ProductPrice]), CatalogModule, LoyaltyModule],
  controllers: [ProductsController],
  providers: [ProductsService],
  exports: [ProductsService],
})
export class ProductsModule {}
