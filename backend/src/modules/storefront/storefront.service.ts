import { EntityManager } from '@mikro-orm/postgresql';
import { Injectable } from '@nestjs/common';
import {
  CHECKOUT_MESSAGES,
  STORE_MESSAGES,
  STORE_SLUG_PATTERN,
  type PublicCourse,
  type PublicProduct,
  type PublicSession,
  type PublicStore,
} from '@studio/contracts';
import { notFound } from '../../common/api-error';
import type { Organization } from '../organizations/organization.entity';
import { OrganizationsService } from '../organizations/organizations.service';
import { courseOfSession, publishedCourse, publishedCourses, publishedProducts } from './storefront.query';

/**
 * The public store of an organization, found by its address (slug). Everything here is readable by
 * anyone: another organization's course or product under this slug, or an unlisted one, is 404.
 */
@Injectable()
export class StorefrontService {
  constructor(
    private readonly em: EntityManager,
    private readonly organizations: OrganizationsService,
  ) {}

  /** The store at this address; an address no studio has is 404 "Store not found". */
  async store(slug: string): Promise<{ organization: Organization; url: string }> {
    const normal = slug.toLowerCase();
    const organization = STORE_SLUG_PATTERN.test(normal) ? await this.organizations.findBySlug(normal) : null;
    if (!organization) throw notFound(STORE_MESSAGES.storeNotFound);
    return { organization, url: this.organizations.storeUrl(organization) };
  }

  async home(slug: string): Promise<PublicStore> {
    const { organization, url } = await this.store(slug);
    const [courses, products] = await Promise.all([
      publishedCourses(this.em, organization.id, url),
      publishedProducts(this.em, organization.id, url),
    ]);
    return {
      name: organization.name,
      slug: organization.slug,
      timezone: organization.timezone,
      store_url: url,
      courses,
      products,
    };
  }

  async course(slug: string, activityId: string): Promise<PublicCourse> {
    const { organization, url } = await this.store(slug);
    const course = await publishedCourse(this.em, organization.id, activityId, url);
    if (!course) throw notFound(STORE_MESSAGES.courseNotFound);
    return course;
  }

  async product(slug: string, productId: string): Promise<PublicProduct> {
    const { organization, url } = await this.store(slug);
    const [product] = await publishedProducts(this.em, organization.id, url, productId);
    if (!product) throw notFound(STORE_MESSAGES.productNotFound);
    return product;
  }

  /**
   * What a session's checkout page shows: the store's name, the session's course and the session,
   * with its seats left. A session that cannot be booked (past, cancelled, another studio's, of an
   * unlisted course) is 404 "Session not found".
   */
  async checkoutSession(
    slug: string,
    eventId: string,
  ): Promise<{ store_name: string; course: PublicCourse; session: PublicSession }> {
    const { organization, url } = await this.store(slug);
    const activityId = await courseOfSession(this.em, organization.id, eventId);
    const course = activityId ? await publishedCourse(this.em, organization.id, activityId, url) : null;
    const session = course?.sessions.find((s) => s.event_id === eventId);
    if (!course || !session) throw notFound(CHECKOUT_MESSAGES.sessionNotFound);
    return { store_name: organization.name, course, session };
  }

  /** A published product with the store's name: its checkout page (?product_id=); anything else is 404. */
  async checkoutProduct(slug: string, productId: string): Promise<{ store_name: string; product: PublicProduct }> {
    const { organization, url } = await this.store(slug);
    const [product] = await publishedProducts(this.em, organization.id, url, productId);
    if (!product) throw notFound(STORE_MESSAGES.productNotFound);
    return { store_name: organization.name, product };
  }
}
