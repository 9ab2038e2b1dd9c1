import { z } from 'zod';

/**
 * Seed 003 §10: unknown enum values are rejected unless a feature flag permits them. This builds
 * the permissive twin of a schema by widening every enum to "known value or any string"; the strict
 * schema stays the source of truth and of the types.
 */
const cache = new WeakMap<z.ZodType, z.ZodType>();

export function permissive<T extends z.ZodType>(schema: T): T {
  const hit = cache.get(schema);
  if (hit) return hit as T;
  const widened = widen(schema);
  cache.set(schema, widened);
  return widened as T;
}

function widen(schema: z.ZodType): z.ZodType {
  const def = (schema as unknown as { _zod: { def: Record<string, unknown> & { type: string } } })._zod.def;
  switch (def.type) {
    case 'enum':
      return z.union([schema, z.string()]);
    case 'object': {
      const shape = def.shape as Record<string, z.ZodType>;
      const next = Object.fromEntries(Object.entries(shape).map(([k, v]) => [k, widen(v)]));
      return z.object(next);
    }
    case 'array':
      return z.array(widen(def.element as z.ZodType));
    case 'optional':
      return widen(def.innerType as z.ZodType).optional();
    case 'nullable':
      return widen(def.innerType as z.ZodType).nullable();
    case 'default':
      return widen(def.innerType as z.ZodType).default(def.defaultValue as never);
    case 'record':
      return z.record(widen(def.keyType as z.ZodType) as z.ZodString, widen(def.valueType as z.ZodType));
    case 'union':
      return z.union((def.options as z.ZodType[]).map(widen) as [z.ZodType, z.ZodType]);
    default:
      return schema;
  }
}

export type ParseOptions = { permissive?: boolean };

/** Parse at a boundary; errors as values with a readable one-line message. */
export function parseWith<T extends z.ZodType>(
  schema: T,
  data: unknown,
  options: ParseOptions = {},
): { ok: true; value: z.infer<T> } | { ok: false; message: string; issues: z.core.$ZodIssue[] } {
  const result = (options.permissive ? permissive(schema) : schema).safeParse(data);
  if (result.success) return { ok: true, value: result.data };
  return { ok: false, message: formatIssues(result.error.issues), issues: result.error.issues };
}

export function formatIssues(issues: readonly z.core.$ZodIssue[]): string {
  return issues
    .slice(0, 5)
    .map((i) => `${i.path.length ? i.path.join('.') : '(root)'}: ${i.message}`)
    .join('; ');
}
