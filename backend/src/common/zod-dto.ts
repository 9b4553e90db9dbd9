import { createZodDto as createNestZodDto } from 'nestjs-zod';

/*
 * The project's one way to make a DTO class from a zod schema (ESLint forbids importing
 * `createZodDto` from nestjs-zod directly).
 *
 * Why: zod 4 writes a nullable scalar as the JSON Schema 2020-12 type list
 * `{ type: ['string', 'null'] }`. The OpenAPI document is 3.1, where that is valid, but nestjs-zod
 * hands each top-level property to @nestjs/swagger, which reads any `type` that is an array as
 * "an array of the first type": `photo_url: z.string().nullable()` came out as `string[]` in the
 * generated client types. Rewriting such a property as `anyOf: [{ type: 'string', ... }, { type:
 * 'null' }]` (the form zod itself uses for nullable formats such as uuid) keeps it `string | null`.
 * Nested properties are not touched by @nestjs/swagger and stay as zod wrote them.
 */

type PropertySchema = Record<string, unknown> & { type?: unknown };

/** Keys that describe the property itself, not the non-null value: they stay outside the anyOf. */
const OUTER_KEYS = new Set(['description', 'title', 'default', 'examples', 'deprecated', 'readOnly', 'writeOnly', 'required', 'selfRequired']);

export function nullableTypeListAsAnyOf(property: PropertySchema): PropertySchema {
  if (!Array.isArray(property.type) || !property.type.includes('null')) return property;
  const types = property.type.filter((t) => t !== 'null');
  const outer: PropertySchema = { type: '' };
  const value: PropertySchema = { type: types.length === 1 ? types[0] : types };
  for (const [key, v] of Object.entries(property)) {
    if (key === 'type') continue;
    // nestjs-zod's own bookkeeping keys start with its prefix and belong to the property.
    if (OUTER_KEYS.has(key) || key.startsWith('x-nestjs_zod')) outer[key] = v;
    else value[key] = v;
  }
  outer.anyOf = [value, { type: 'null' }];
  return outer;
}

type MetadataFactory = () => Record<string, PropertySchema>;
interface WithFactory {
  _OPENAPI_METADATA_FACTORY: MetadataFactory;
}

function fixed(factory: MetadataFactory): Record<string, PropertySchema> {
  const properties = factory();
  return Object.fromEntries(Object.entries(properties).map(([key, p]) => [key, nullableTypeListAsAnyOf(p)]));
}

/** Replaces a DTO class's metadata factory in place: @nestjs/swagger calls the factory of every class up the prototype chain, so a subclass could not hide the original. */
function patchFactory(Dto: WithFactory): void {
  const original = Dto._OPENAPI_METADATA_FACTORY;
  Object.defineProperty(Dto, '_OPENAPI_METADATA_FACTORY', {
    value: function (this: unknown) {
      return fixed(() => original.call(this));
    },
  });
}

export const createZodDto: typeof createNestZodDto = (schema, options) => {
  const Dto = createNestZodDto(schema, options);
  patchFactory(Dto as unknown as WithFactory);
  const outputGetter = Object.getOwnPropertyDescriptor(Dto, 'Output')?.get;
  if (outputGetter) {
    Object.defineProperty(Dto, 'Output', {
      get(this: unknown) {
        // The original getter builds a new class named after the caller (`${this.name}_Output`) on each read.
        const Output = outputGetter.call(this) as WithFactory;
        patchFactory(Output);
        return Output;
      },
    });
  }
  return Dto;
};
