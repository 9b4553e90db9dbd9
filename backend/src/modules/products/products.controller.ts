import { Body, Controller, Get, Param, Post, Put, Query } from '@nestjs/common';
import { ApiNotFoundResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { PRODUCT_LIST_MAX_LIMIT } from '@studio/contracts';
import { ZodResponse } from 'nestjs-zod';
import { ApiInvalidBody, ApiInvalidQuery } from '../../common/api-errors';
import { ErrorBodyDto } from '../../common/error-body.dto';
import { Ctx, RequestContext } from '../../common/request-context';
import { UuidParamPipe } from '../../common/uuid-param.pipe';
import { Auth } from '../identity/auth.guard';
import { ProductListDto, ProductListQueryDto, ProductOutDto, ProductPayloadDto } from './products.dto';
import { ProductsService } from './products.service';

@ApiTags('products')
@Controller('admin/products')
@Auth()
export class ProductsController {
  constructor(private readonly products: ProductsService) {}

  @Get()
  @ApiOperation({
    summary: `The organization's products, newest first, with their current price and first image: search (name) and page in SQL; without a limit (or limit=${PRODUCT_LIST_MAX_LIMIT}) the pickers' whole list of {name, product_id} (spec 001 §7)`,
  })
  @ZodResponse({ status: 200, type: ProductListDto })
  @ApiInvalidQuery()
  async list(@Ctx() ctx: RequestContext, @Query() query: ProductListQueryDto) {
    const { items, total } = await this.products.list(ctx, query);
    return { products: items, totalCount: total, currentPage: query.page, itemsPerPage: query.limit };
  }

  @Post()
  @ApiOperation({
    summary:
      'Create a product (spec 000 §3 written fields; amount in cents). Points need an active loyalty programme: 400 otherwise.',
  })
  @ZodResponse({ status: 201, type: ProductOutDto })
  @ApiNotFoundResponse({ type: ErrorBodyDto, description: 'An image of another organization' })
  @ApiInvalidBody()
  create(@Ctx() ctx: RequestContext, @Body() body: ProductPayloadDto) {
    return this.products.create(ctx, body);
  }

  @Get(':product_id')
  @ApiOperation({ summary: 'One product with MainVariant.current_price (spec 000 §3)' })
  @ZodResponse({ status: 200, type: ProductOutDto })
  @ApiNotFoundResponse({ type: ErrorBodyDto })
  get(@Ctx() ctx: RequestContext, @Param('product_id', UuidParamPipe) id: string) {
    return this.products.get(ctx, id);
  }

  @Put(':product_id')
  @ApiOperation({
    summary:
      'Edit a product. A change of amount, category, renewal interval or points makes a new current price; the old price stays for past orders.',
  })
  @ZodResponse({ status: 200, type: ProductOutDto })
  @ApiNotFoundResponse({ type: ErrorBodyDto, description: "Another organization's product, or one of its images" })
  @ApiInvalidBody()
  update(@Ctx() ctx: RequestContext, @Param('product_id', UuidParamPipe) id: string, @Body() body: ProductPayloadDto) {
    return this.products.update(ctx, id, body);
  }
}
