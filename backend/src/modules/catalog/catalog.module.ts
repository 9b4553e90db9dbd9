import { Module } from '@nestjs/common';

/** Courses, products, discounts, locations, instructors, waivers and media. Its boundary is set now; later issues fill it in. */
@Module({})
export class CatalogModule {}
