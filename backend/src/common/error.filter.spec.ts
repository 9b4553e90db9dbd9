import { BadRequestException, HttpStatus } from '@nestjs/common';
import { NotFoundError } from '@mikro-orm/core';
import { ZodValidationException } from 'nestjs-zod';
import { z } from 'zod';
import { ApiError } from './api-error';
import { ErrorFilter } from './error.filter';

describe('ErrorFilter.toBody', () => {
  const filter = new ErrorFilter();

  it('turns zod failures into field messages, naming unknown fields', () => {
    const schema = z.object({ name: z.string().min(10, 'Course name must be at least 10 characters') }).strict();
    const result = schema.safeParse({ name: 'short', extra: 1 });
    if (result.success) throw new Error('expected a failure');
    expect(filter.toBody(new ZodValidationException(result.error))).toEqual({
      statusCode: 400,
      message: 'Validation failed',
      errors: { name: 'Course name must be at least 10 characters', extra: 'Unknown field: extra' },
    });
  });

  it('keeps the message and fields of an ApiError', () => {
    expect(filter.toBody(new ApiError(HttpStatus.CONFLICT, 'Taken', { email: 'In use' }))).toEqual({
      statusCode: 409,
      message: 'Taken',
      errors: { email: 'In use' },
    });
  });

  it('maps framework and ORM errors to 4xx, and only unknown errors to 500', () => {
    expect(filter.toBody(new BadRequestException('Nope')).statusCode).toBe(400);
    expect(filter.toBody(NotFoundError.findOneFailed('Course', { id: 1 })).statusCode).toBe(404);
    expect(filter.toBody(Object.assign(new Error('x'), { status: 413, type: 'entity.too.large' })).statusCode).toBe(413);
    expect(filter.toBody(new TypeError('boom'))).toEqual({ statusCode: 500, message: 'Something went wrong on our side' });
  });
});
