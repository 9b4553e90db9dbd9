/**
 * A field required only in some bodies, stated for the OpenAPI document on the zod schema whose
 * refinement enforces it: `.meta(requiredUnless(...))` next to the `.superRefine` or `.refine`, so
 * the rule and its documentation sit in one place. zod's JSON Schema output carries `.meta()` keys
 * as they are, and OpenAPI 3.1 schemas are JSON Schema: `if` / `then` / `else`.
 */
export type JsonSchemaCondition = {
  properties?: Record<string, { const?: unknown; type?: string; minLength?: number }>;
  required?: string[];
};

/** A subschema whose every required name is also among its properties (as OpenAPI linters want). */
const named = <T extends { properties?: Record<string, unknown>; required?: string[] }>(schema: T): T => ({
  ...schema,
  properties: {
    ...Object.fromEntries((schema.required ?? []).map((name) => [name, {}])),
    ...schema.properties,
  },
});

/** `field` is required unless the body matches `unless`; `then` may add what holds when it does. */
export function requiredUnless(
  field: string,
  unless: JsonSchemaCondition,
  then?: { not: { required: string[] } },
) {
  return {
    if: named(unless),
    ...(then ? { then: { not: named(then.not) } } : {}),
    else: named({ required: [field] }),
  };
}

/**
 * A field whose requirement depends on stored state, not on the body (a paid session's price): the
 * OpenAPI extension `x-required-when` says when, for people and for the fuzz test.
 */
export const requiredWhen = (when: string, description: string) => ({ description, 'x-required-when': when });
