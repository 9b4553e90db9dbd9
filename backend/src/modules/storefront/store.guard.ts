import { CanActivate, createParamDecorator, ExecutionContext, Injectable } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import type { Organization } from '../organizations/organization.entity';
import { StorefrontService } from './storefront.service';

type StoreRequest = FastifyRequest & { store?: Organization; storeOrganizationId?: string };

/**
 * Finds the store a route's `:slug` names before the handler (and the idempotency keys, which are
 * kept per store) runs: an address no studio has is 404 "Store not found".
 */
@Injectable()
export class StoreGuard implements CanActivate {
  constructor(private readonly storefront: StorefrontService) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<StoreRequest>();
    const { organization } = await this.storefront.store(
      String((request.params as { slug?: string }).slug ?? ''),
    );
    request.store = organization;
    request.storeOrganizationId = organization.id;
    return true;
  }
}

/** The store StoreGuard found. */
export const CurrentStore = createParamDecorator((_: unknown, context: ExecutionContext): Organization => {
  const store = context.switchToHttp().getRequest<StoreRequest>().store;
  if (!store) throw new Error('CurrentStore used on a route without the store guard');
  return store;
});
