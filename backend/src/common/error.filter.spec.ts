import { BadRequestException, HttpStatus } from '@nestjs/common';
import { NotFoundError, UniqueConstraintViolationException } from '@mikro-orm/core';
import { MESSAGES, SCHEDULING_MESSAGES } from '@studio/contracts';
import { ZodValidationException } from 'nestjs-zod';
import { z } from 'zod';
import { ApiError } from './api-error';
import { DomainError } from './domain-error';
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

  it('answers a DomainError with the body an ApiError of the same status, message and fields answers', () => {
    const cases: [DomainError, ApiError][] = [
      [new DomainError('conflict', { code: 'zero_total', message: 'Order total is $0.00' }), new ApiError(HttpStatus.CONFLICT, 'Order total is $0.00')],
      [new DomainError('invalid', { code: 'too_much', message: 'Too much', field: 'amount' }), new ApiError(HttpStatus.BAD_REQUEST, 'Too much', { amount: 'Too much' })],
      [new DomainError('not_found', { code: 'order_not_found', message: 'Order not found' }), new ApiError(HttpStatus.NOT_FOUND, 'Order not found')],
      [new DomainError('forbidden', { code: 'owner_only', message: 'Owners only' }), new ApiError(HttpStatus.FORBIDDEN, 'Owners only')],
      [new DomainError('upstream', { code: 'provider_unknown', message: 'No answer' }), new ApiError(HttpStatus.BAD_GATEWAY, 'No answer')],
      [
        new DomainError('invalid', { code: 'too_much', message: 'Too much', field: 'amount' }).alsoOn('refund'),
        new ApiError(HttpStatus.BAD_REQUEST, 'Too much', { amount: 'Too much', refund: 'Too much' }),
      ],
    ];
    for (const [domain, api] of cases) expect(filter.toBody(domain)).toEqual(filter.toBody(api));
  });

  it('maps framework and ORM errors to 4xx, and only unknown errors to 500', () => {
    expect(filter.toBody(new BadRequestException('Nope')).statusCode).toBe(400);
    expect(filter.toBody(NotFoundError.findOneFailed('Course', { id: 1 })).statusCode).toBe(404);
    expect(filter.toBody(Object.assign(new Error('x'), { status: 413, type: 'entity.too.large' })).statusCode).toBe(413);
    expect(filter.toBody(new TypeError('boom'))).toEqual({ statusCode: 500, message: 'Something went wrong on our side' });
  });

  it('reports a field named __proto__ as an unknown field instead of assigning the prototype', () => {
    const result = z.object({ name: z.string() }).strict().safeParse(JSON.parse('{"name":"x","__proto__":{"admin":true}}'));
    if (result.success) throw new Error('expected a failure');
    const body = filter.toBody(new ZodValidationException(result.error));
    // What the client reads: the field, named as it sent it.
    expect(JSON.stringify(body.errors)).toBe('{"__proto__":"Unknown field: __proto__"}');
    expect(Object.getPrototypeOf(body.errors)).toBe(Object.prototype);
  });

  it('answers a unique violation with the resource’s own message, and the generic one only for unknown constraints', () => {
    const violation = (constraint: string) =>
      new UniqueConstraintViolationException(Object.assign(new Error(`duplicate key value violates unique constraint "${constraint}"`), { constraint }));
    expect(filter.toBody(violation('student_organization_email_unique'))).toEqual({
      statusCode: 409,
      message: MESSAGES.students.emailTaken,
      errors: { email: MESSAGES.students.emailTaken },
    });
    expect(filter.toBody(violation('tag_organization_name_unique'))).toEqual({
      statusCode: 409,
      message: SCHEDULING_MESSAGES.tagNameTaken,
      errors: { name: SCHEDULING_MESSAGES.tagNameTaken },
    });
    expect(filter.toBody(violation('enrollment_active_student_unique'))).toEqual({ statusCode: 409, message: SCHEDULING_MESSAGES.alreadyEnrolled });
    expect(filter.toBody(violation('something_else_unique'))).toEqual({ statusCode: 409, message: 'This record already exists' });
  });
});
