import { INestApplicationContext } from '@nestjs/common';
import { productPayloadSchema, type ProductPayloadInput } from '@studio/contracts';
import { RequestContext } from '../common/request-context';
import { MediaService } from '../modules/catalog/media.service';
import { ProductsService } from '../modules/products/products.service';
import { gradientPng } from './demo-images';

type Rgb = [number, number, number];

interface DemoProduct {
  product: Omit<ProductPayloadInput, 'images'>;
  colors: [Rgb, Rgb];
  /** A later price, saved as an edit: the product then has a price history of two rows. */
  repricedTo?: number;
}

/** One of each kind (spec 000 §3): one-time, subscription, lead magnet; the membership earns points. */
const PRODUCTS: DemoProduct[] = [
  {
    product: {
      productName: 'Glaze Sampler Kit',
      productDescription: 'Twelve bisque test tiles and six brush-on glazes to try at home before your next firing.',
      priceType: 'oneTime',
      amount: 3200,
    },
    colors: [[60, 120, 140], [200, 230, 220]],
    repricedTo: 3500,
  },
  {
    product: {
      productName: 'Open Studio Membership',
      productDescription: 'Unlimited open studio hours, a shelf of your own and 10% off every class. Billed monthly.',
      priceType: 'subscription',
      renewalIntervalUnits: 'months',
      renewalIntervalQuantity: 1,
      amount: 8900,
      earnPoints: true,
      rewardAmount: 890,
    },
    colors: [[150, 80, 60], [240, 200, 170]],
  },
  {
    product: {
      productName: 'Beginner’s Guide to Clay (PDF)',
      productDescription: 'A free 20-page guide to clay bodies, tools and your first week at the wheel.',
      priceType: 'leadMagnet',
      amount: 0,
    },
    colors: [[90, 90, 60], [230, 225, 180]],
  },
];

/**
 * The demo studio's products, each with a generated image, created through ProductsService like the
 * API does. The membership earns points, so the studio's loyalty programme must be active first.
 */
export async function seedDemoProducts(app: INestApplicationContext, ctx: RequestContext): Promise<void> {
  const media = app.get(MediaService);
  const products = app.get(ProductsService);
  for (const [index, demo] of PRODUCTS.entries()) {
    const bytes = gradientPng(480, 320, demo.colors[0], demo.colors[1]);
    const image = await media.upload(ctx, { buffer: bytes, size: bytes.length, originalname: `demo-product-${index}.png` });
    const payload = productPayloadSchema.parse({ ...demo.product, images: [image.url] });
    const created = await products.create(ctx, payload);
    if (demo.repricedTo) await products.update(ctx, created.product_id, { ...payload, amount: demo.repricedTo });
  }
}
