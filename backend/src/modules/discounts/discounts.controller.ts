import { Body, Controller, Get, Param, Post, Put, Query } from '@nestjs/common';
import { ApiConflictResponse, ApiNotFoundResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { DISCOUNT_MESSAGES as M } from '@studio/contracts';
import { ZodResponse } from 'nestjs-zod';
import { ApiInvalidBody, ApiInvalidQuery } from '../../common/api-errors';
import { ErrorBodyDto } from '../../common/error-body.dto';
import { Ctx, RequestContext } from '../../common/request-context';
import { UuidParamPipe } from '../../common/uuid-param.pipe';
import { Auth } from '../identity/auth.guard';
import { DiscountListDto, DiscountListQueryDto, DiscountOutDto, DiscountPayloadDto } from './discounts.dto';
import { DiscountsService, mapDiscount } from './discounts.service';

@ApiTags('discounts')
@Controller('admin/promo-code')
@Auth()
export class DiscountsController {
  constructor(private readonly discounts: DiscountsService) {}

  @Get()
  @ApiOperation({ summary: "The organization's discount codes, newest first, paged in SQL; `search` matches any part of the code or label" })
  @ZodResponse({ status: 200, type: DiscountListDto })
  @ApiInvalidQuery()
  async list(@Ctx() ctx: RequestContext, @Query() query: DiscountListQueryDto) {
    const { items, total } = await this.discounts.list(ctx, query);
    const now = new Date();
    return { promo_codes: items.map((d) => mapDiscount(d, now)), totalCount: total, currentPage: query.page, itemsPerPage: query.limit };
  }

  @Post()
  @ApiOperation({ summary: 'Create a discount code (spec 000 §3; dollar values in cents, dates as instants)' })
  @ZodResponse({ status: 201, type: DiscountOutDto })
  @ApiInvalidBody()
  @ApiNotFoundResponse({ type: ErrorBodyDto, description: "A course of another organization (or none): 'Course not found'" })
  @ApiConflictResponse({ type: ErrorBodyDto, description: M.codeTaken })
  async create(@Ctx() ctx: RequestContext, @Body() body: DiscountPayloadDto) {
    return mapDiscount(await this.discounts.create(ctx, body));
  }

  @Get(':id')
  @ApiOperation({ summary: 'One discount code' })
  @ZodResponse({ status: 200, type: DiscountOutDto })
  @ApiNotFoundResponse({ type: ErrorBodyDto })
  async get(@Ctx() ctx: RequestContext, @Param('id', UuidParamPipe) id: string) {
    return mapDiscount(await this.discounts.requireDiscount(ctx, id));
  }

  @Put(':id')
  @ApiOperation({ summary: 'Edit a discount code (the whole payload, as on creation)' })
  @ZodResponse({ status: 200, type: DiscountOutDto })
  @ApiInvalidBody()
  @ApiNotFoundResponse({ type: ErrorBodyDto, description: 'The discount, or the course it is limited to, is not the organization’s' })
  @ApiConflictResponse({ type: ErrorBodyDto, description: M.codeTaken })
  async update(@Ctx() ctx: RequestContext, @Param('id', UuidParamPipe) id: string, @Body() body: DiscountPayloadDto) {
    return mapDiscount(await this.discounts.update(ctx, id, body));
  }
}
