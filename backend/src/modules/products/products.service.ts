import { LockMode } from '@mikro-orm/core';
import { EntityManager } from '@mikro-orm/postgresql';
import { HttpStatus, Injectable } from '@nestjs/common';
import {
  loyaltyProgramIssue,
  normalizeProductPayload,
  PRODUCT_MESSAGES,
  type ProductListQuery,
  type ProductPayload,
} from '@studio/contracts';
import { ApiError, notFound } from '../../common/api-error';
import { likeEscape } from '../../common/like-escape';
import { RequestContext } from '../../common/request-context';
import { Media } from '../catalog/entities/media.entity';
import { MediaService } from '../catalog/media.service';
import { CoursesService } from '../catalog/courses.service';
import { LoyaltyService } from '../loyalty/loyalty.service';
import { Organization } from '../organizations/organization.entity';
import { Product } from './entities/product.entity';
import { ProductImage } from './entities/product-image.entity';
import { ProductPrice } from './entities/product-price.entity';
import { mapProduct, mapProductListRow, type ProductListRow } from './product.mapper';

type Normalized = ReturnType<typeof normalizeProductPayload>;

/** The price fields of a payload, as a price row holds them. */
function priceOf(input: Normalized) {
  return {
    amountCents: input.amount,
    category: input.priceType,
    renewalIntervalUnit: input.renewalIntervalUnits,
    renewalIntervalQuantity: input.renewalIntervalQuantity,
    earnedLoyaltyPoints: input.rewardAmount,
    grant: input.grant,
    membershipBookings: input.membershipBookings,
    membershipUnlimited: input.membershipUnlimited,
    packCredits: input.packCredits,
    packExpiresAfterQuantity: input.packExpiresAfterQuantity,
    packExpiresAfterUnit: input.packExpiresAfterUnit,
    coversActivityIds: input.coversActivityIds,
    coversCategoryIds: input.coversCategoryIds,
  };
}

const sameList = <T>(a: T[] | null, b: T[] | null) => (a ?? []).join(',') === (b ?? []).join(',');

/** Whether a price row says the same as the payload: any difference (amount, grant, …) is a new price row. */
function samePrice(row: ProductPrice, next: ReturnType<typeof priceOf>): boolean {
  return (
    row.amountCents === next.amountCents &&
    row.category === next.category &&
    row.renewalIntervalUnit === next.renewalIntervalUnit &&
    row.renewalIntervalQuantity === next.renewalIntervalQuantity &&
    row.earnedLoyaltyPoints === next.earnedLoyaltyPoints &&
    row.grant === next.grant &&
    row.membershipBookings === next.membershipBookings &&
    row.membershipUnlimited === next.membershipUnlimited &&
    row.packCredits === next.packCredits &&
    row.packExpiresAfterQuantity === next.packExpiresAfterQuantity &&
    row.packExpiresAfterUnit === next.packExpiresAfterUnit &&
    sameList(row.coversActivityIds, next.coversActivityIds) &&
    sameList(row.coversCategoryIds, next.coversCategoryIds)
  );
}

/**
 * Products and their price history, always inside the caller's organization. A price is never
 * edited in place: a change inserts a new current price and the old row stays for past orders.
 */
@Injectable()
export class ProductsService {
  constructor(
    private readonly em: EntityManager,
    private readonly media: MediaService,
    private readonly loyalty: LoyaltyService,
    private readonly courses: CoursesService,
  ) {}

  /** The product, or 404 when it does not exist in the caller's organization. */
  async requireProduct(ctx: RequestContext, id: string, lock = false): Promise<Product> {
    const where = { id, organization: ctx.organizationId };
    // The row lock is taken alone: FOR UPDATE cannot apply to the outer join that loads the images.
    if (lock && !(await this.em.findOne(Product, where, { lockMode: LockMode.PESSIMISTIC_WRITE, fields: ['id'] }))) {
      throw notFound(PRODUCT_MESSAGES.notFound);
    }
    const product = await this.em.findOne(Product, where, { populate: ['images.media'], refresh: lock });
    if (!product) throw notFound(PRODUCT_MESSAGES.notFound);
    return product;
  }

  /** The product's current price (every product has one from its creation). */
  async currentPrice(ctx: RequestContext, productId: string): Promise<ProductPrice> {
    const price = await this.em.findOne(ProductPrice, {
      product: { id: productId, organization: ctx.organizationId },
      current: true,
    });
    if (!price) throw notFound(PRODUCT_MESSAGES.notFound);
    return price;
  }

  /**
   * A published product of the organization with its current price and first image, as the store
   * sells it; null when it is not there, another organization's or not published.
   */
  async storeProduct(organizationId: string, productId: string): Promise<{ product: Product; price: ProductPrice; imageUrl: string | null } | null> {
    const product = await this.em.findOne(Product, { id: productId, organization: organizationId, status: 'published' }, { populate: ['images.media'] });
    if (!product) return null;
    const price = await this.em.findOne(ProductPrice, { product: product.id, current: true });
    if (!price) return null;
    return { product, price, imageUrl: product.images.getItems()[0]?.media.url ?? null };
  }

  /** A product as it was sold (the price row of the order line), whatever its status now; null when gone. */
  async soldProduct(organizationId: string, productId: string, priceId: string | null): Promise<{ product: Product; price: ProductPrice | null; imageUrl: string | null } | null> {
    const product = await this.em.findOne(Product, { id: productId, organization: organizationId }, { populate: ['images.media'] });
    if (!product) return null;
    const price = priceId ? await this.em.findOne(ProductPrice, { id: priceId, product: product.id }) : null;
    return { product, price, imageUrl: product.images.getItems()[0]?.media.url ?? null };
  }

  async create(ctx: RequestContext, payload: ProductPayload) {
    const input = normalizeProductPayload(payload);
    await this.checkLoyaltyProgram(ctx, input.earnPoints);
    await this.checkCoveredCourses(ctx, input.coversActivityIds);
    const product = await this.em.transactional(async (em) => {
      const images = await this.media.requireByUrls(ctx, input.images);
      const product = em.create(Product, {
        organization: em.getReference(Organization, ctx.organizationId),
        name: input.productName,
        description: input.productDescription,
        status: input.status,
        downloadUrl: input.downloadUrl ?? null,
        createdAt: new Date(),
        updatedAt: new Date(),
      });
      this.replaceImages(product, images);
      em.create(ProductPrice, { product, ...priceOf(input), current: true, createdAt: new Date() });
      await em.flush();
      return product;
    });
    return this.get(ctx, product.id);
  }

  async update(ctx: RequestContext, id: string, payload: ProductPayload) {
    const input = normalizeProductPayload(payload);
    // Another organization's product is 404 whatever the body says; then the same rule as the form:
    // points on needs an active programme, on every save (spec 000 §4).
    await this.requireProduct(ctx, id);
    await this.checkLoyaltyProgram(ctx, input.earnPoints);
    await this.checkCoveredCourses(ctx, input.coversActivityIds);
    await this.em.transactional(async (em) => {
      // Locked, so two saves at once cannot both retire the same current price.
      const product = await this.requireProduct(ctx, id, true);
      const current = await this.currentPrice(ctx, id);
      const next = priceOf(input);
      const images = await this.media.requireByUrls(ctx, input.images);
      em.assign(product, {
        name: input.productName,
        description: input.productDescription,
        status: input.status,
        downloadUrl: input.downloadUrl ?? null,
      });
      this.replaceImages(product, images);
      if (!samePrice(current, next)) {
        // Retire the old price first: at most one price per product is current (partial unique index).
        current.current = false;
        await em.flush();
        em.create(ProductPrice, { product, ...next, current: true, createdAt: new Date() });
      }
      await em.flush();
    });
    return this.get(ctx, id);
  }

  async get(ctx: RequestContext, id: string) {
    const product = await this.requireProduct(ctx, id);
    return mapProduct(product, await this.currentPrice(ctx, id));
  }

  /**
   * One page of the organization's products, newest first, with the current price and the first
   * image: search (name) and paging in SQL. The first image's URL is read from `media` (catalog)
   * in this one query, for speed; nothing of catalog's is written here.
   */
  async list(ctx: RequestContext, query: ProductListQuery) {
    const clauses = ['p.organization_id = ?'];
    const params: unknown[] = [ctx.organizationId];
    const term = query.search?.toLowerCase();
    if (term) {
      clauses.push('lower(p.name) like ?');
      params.push(`%${likeEscape(term)}%`);
    }
    const where = clauses.join(' and ');
    const connection = this.em.getConnection();
    const [rows, [count]] = await Promise.all([
      connection.execute<ProductListRow[]>(
        `select p.id, p.name, p.status, p.created_at,
           pp.amount_cents, pp.category, pp.renewal_interval_unit, pp.renewal_interval_quantity, pp.earned_loyalty_points,
           pp.grant_kind, pp.membership_bookings, pp.membership_unlimited, pp.pack_credits, pp.pack_expires_after_quantity,
           pp.pack_expires_after_unit, pp.covers_activity_ids, pp.covers_category_ids,
           (select m.url from product_image pi join media m on m.id = pi.media_id
             where pi.product_id = p.id order by pi.position limit 1) as image
         from product p join product_price pp on pp.product_id = p.id and pp.current
         where ${where}
         order by p.created_at desc, p.id desc
         limit ? offset ?`,
        [...params, query.limit, (query.page - 1) * query.limit],
      ),
      connection.execute<{ total: string }[]>(`select count(*) as total from product p where ${where}`, params),
    ]);
    return { items: rows.map(mapProductListRow), total: Number(count.total) };
  }

  /** Points can be turned on only while the organization's loyalty programme is active (spec 000 §4). */
  private async checkLoyaltyProgram(ctx: RequestContext, earnPoints: boolean): Promise<void> {
    if (!earnPoints) return;
    const issue = loyaltyProgramIssue(true, await this.loyalty.isActive(ctx.organizationId));
    if (issue) throw new ApiError(HttpStatus.BAD_REQUEST, issue, { earnPoints: issue });
  }

  /** A membership or pack covers the organization's own courses only (400 naming the field otherwise). */
  private async checkCoveredCourses(ctx: RequestContext, ids: string[] | null): Promise<void> {
    if (!ids?.length) return;
    const unknown = await this.courses.unknownCourseIds(ctx.organizationId, ids);
    if (unknown.length > 0)
      throw new ApiError(HttpStatus.BAD_REQUEST, PRODUCT_MESSAGES.coversCourseUnknown, { coversActivityIds: PRODUCT_MESSAGES.coversCourseUnknown });
  }

  private replaceImages(product: Product, images: Media[]): void {
    const current = product.images.getItems().map((i) => i.media.id);
    if (current.length === images.length && current.every((id, i) => id === images[i].id)) return;
    product.images.removeAll();
    images.forEach((media, position) => product.images.add(this.em.create(ProductImage, { product, media, position })));
  }
}
