import { Controller, Get, Header, Param, UseGuards } from '@nestjs/common';
import {
  ApiNotFoundResponse,
  ApiOperation,
  ApiParam,
  ApiTags,
  ApiTooManyRequestsResponse,
} from '@nestjs/swagger';
import { STORE_MESSAGES } from '@studio/contracts';
import { ZodResponse } from 'nestjs-zod';
import { ErrorBodyDto } from '../../common/error-body.dto';
import { UuidParamPipe } from '../../common/uuid-param.pipe';
import { PublicRateLimitGuard } from './public-rate-limit.guard';
import { PublicCourseDto, PublicProductDto, PublicStoreDto } from './storefront.dto';
import { StorefrontService } from './storefront.service';

/** The tag of every Storefront API operation (no sign-in: `security: []` in the document). */
export const STOREFRONT_TAG = 'storefront';

const SLUG_PARAM = ApiParam({
  name: 'slug',
  description: "The store's address (Settings → Organization), as in PUBLIC_APP_URL/s/{slug}",
  example: 'demo-studio',
});

/**
 * The Storefront API (issue 21): what a studio's store shows, readable by anyone, so a studio can
 * build its own site on it. Read calls answer any origin (CORS) and are rate-limited per address.
 */
@ApiTags(STOREFRONT_TAG)
@Controller('public/:slug')
@UseGuards(PublicRateLimitGuard)
@ApiTooManyRequestsResponse({ type: ErrorBodyDto, description: STORE_MESSAGES.tooManyRequests })
export class StorefrontController {
  constructor(private readonly storefront: StorefrontService) {}

  @Get()
  @Header('Access-Control-Allow-Origin', '*')
  @SLUG_PARAM
  @ApiOperation({ summary: 'A store: its name, zone and address, its published courses and its products' })
  @ApiNotFoundResponse({ type: ErrorBodyDto, description: STORE_MESSAGES.storeNotFound })
  @ZodResponse({ status: 200, type: PublicStoreDto })
  home(@Param('slug') slug: string) {
    return this.storefront.home(slug);
  }

  @Get('activities/:activity_id')
  @Header('Access-Control-Allow-Origin', '*')
  @SLUG_PARAM
  @ApiOperation({
    summary: 'A published course with its upcoming sessions and the seats left in each (never who took them)',
  })
  @ApiNotFoundResponse({
    type: ErrorBodyDto,
    description: `${STORE_MESSAGES.storeNotFound}, or ${STORE_MESSAGES.courseNotFound}`,
  })
  @ZodResponse({ status: 200, type: PublicCourseDto })
  course(@Param('slug') slug: string, @Param('activity_id', UuidParamPipe) id: string) {
    return this.storefront.course(slug, id);
  }

  @Get('products/:product_id')
  @Header('Access-Control-Allow-Origin', '*')
  @SLUG_PARAM
  @ApiOperation({ summary: 'A published product with its current price' })
  @ApiNotFoundResponse({
    type: ErrorBodyDto,
    description: `${STORE_MESSAGES.storeNotFound}, or ${STORE_MESSAGES.productNotFound}`,
  })
  @ZodResponse({ status: 200, type: PublicProductDto })
  product(@Param('slug') slug: string, @Param('product_id', UuidParamPipe) id: string) {
    return this.storefront.product(slug, id);
  }
}

/**
 * The Storefront operations say they need no sign-in (`security: []`), so a client generated from
 * the document calls them without a token.
 */
export function markPublicOperations(document: { paths: Record<string, object> }): void {
  for (const item of Object.values(document.paths))
    for (const op of Object.values(item) as { tags?: string[]; security?: unknown[] }[])
      if (op && typeof op === 'object' && op.tags?.includes(STOREFRONT_TAG)) op.security = [];
}
