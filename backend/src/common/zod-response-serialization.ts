import { INestApplication, StreamableFile } from '@nestjs/common';
import { ModulesContainer } from '@nestjs/core';
import { ZodSerializationException } from 'nestjs-zod';

/** Where nestjs-zod's @ZodResponse / @ZodSerializerDto keep the response DTO (its ZodSerializerDtoOptions). */
export const ZOD_SERIALIZER_DTO_KEY = 'ZOD_SERIALIZER_DTO_OPTIONS';

type Schema = { parse(value: unknown): unknown; encode?(value: unknown): unknown; array?(): Schema };
type Dto = Schema | { schema: Schema; codec?: boolean; isZodDto: true };

/** What nestjs-zod's ZodSerializerInterceptor does to a handler's result, without the interceptor. */
export function serializeResponse(result: unknown, dto: Dto | Dto[]): unknown {
  if (result instanceof StreamableFile) return result;
  const one = Array.isArray(dto) ? dto[0] : dto;
  const zodDto = 'isZodDto' in one && one.isZodDto ? one : null;
  let schema = zodDto ? zodDto.schema : (one as Schema);
  if (Array.isArray(dto)) schema = schema.array!();
  try {
    return zodDto?.codec ? schema.encode!(result) : schema.parse(result);
  } catch (error) {
    throw new ZodSerializationException(error);
  }
}

/**
 * Parses each route's answer through its @ZodResponse schema, as nestjs-zod's global
 * ZodSerializerInterceptor did, by wrapping the controller methods that declare one before the
 * routes are registered (call before app.init()). The same parse, the same exception for the error
 * filter; what goes is the interceptor machinery Nest runs around every handler once any global
 * interceptor exists (rxjs defer/mergeAll and two AsyncResource.bind per request): about 0.15 ms
 * of CPU per request, answers with no schema included.
 * The wrapper carries every metadata key of the method it replaces (routes, guards, roles, Swagger).
 */
export function installZodResponseSerialization(app: INestApplication): void {
  const done = new Set<object>();
  for (const module of app.get(ModulesContainer).values()) {
    for (const wrapper of module.controllers.values()) {
      const metatype = wrapper.metatype as (new (...args: never[]) => object) | null;
      if (!metatype || done.has(metatype)) continue;
      done.add(metatype);
      const classDto = Reflect.getMetadata(ZOD_SERIALIZER_DTO_KEY, metatype) as Dto | Dto[] | undefined;
      const prototype = metatype.prototype as Record<string, unknown>;
      for (const name of Object.getOwnPropertyNames(prototype)) {
        if (name === 'constructor') continue;
        const descriptor = Object.getOwnPropertyDescriptor(prototype, name);
        const original = descriptor?.value as ((...args: unknown[]) => unknown) | undefined;
        if (typeof original !== 'function') continue;
        const dto = (Reflect.getMetadata(ZOD_SERIALIZER_DTO_KEY, original) as Dto | Dto[] | undefined) ?? classDto;
        if (!dto) continue;
        const serialized = async function (this: unknown, ...args: unknown[]) {
          return serializeResponse(await original.apply(this, args), dto);
        };
        for (const key of Reflect.getMetadataKeys(original))
          Reflect.defineMetadata(key, Reflect.getMetadata(key, original), serialized);
        Object.defineProperty(serialized, 'name', { value: original.name });
        Object.defineProperty(prototype, name, { ...descriptor, value: serialized });
      }
    }
  }
}
