/**
 * A small structural checker for JSON values (a subset of JSON Schema's ideas, no dependency):
 * objects are closed unless marked open, so a field added to the data but not to the schema is
 * caught as surely as a field that went missing.
 */
export type Schema =
  | { kind: 'string' | 'boolean' | 'null' }
  | { kind: 'number'; integer?: boolean; min?: number; max?: number }
  | { kind: 'enum'; values: readonly (string | number | boolean)[] }
  | { kind: 'array'; items: Schema }
  | { kind: 'object'; properties: Readonly<Record<string, Schema>>; optional: readonly string[]; open: boolean }
  | { kind: 'anyOf'; options: readonly Schema[] };

export const str: Schema = { kind: 'string' };
export const bool: Schema = { kind: 'boolean' };
export const nul: Schema = { kind: 'null' };
export const num = (range: { min?: number; max?: number } = {}): Schema => ({ kind: 'number', ...range });
export const int = (range: { min?: number; max?: number } = {}): Schema => ({ kind: 'number', integer: true, ...range });
export const oneOf = (...values: (string | number | boolean)[]): Schema => ({ kind: 'enum', values });
export const arr = (items: Schema): Schema => ({ kind: 'array', items });
export const nullable = (schema: Schema): Schema => ({ kind: 'anyOf', options: [schema, nul] });
/** An object with exactly these properties (those listed in `optional` may be absent); `open` allows others. */
export const obj = (properties: Record<string, Schema>, opts: { optional?: string[]; open?: boolean } = {}): Schema => ({
  kind: 'object',
  properties,
  optional: opts.optional ?? [],
  open: opts.open ?? false,
});

const describe = (value: unknown): string => (value === null ? 'null' : Array.isArray(value) ? 'an array' : typeof value);

/** Every way `value` departs from `schema`, as `path: problem` lines (empty when it conforms). */
export function check(schema: Schema, value: unknown, path = '$'): string[] {
  switch (schema.kind) {
    case 'string':
    case 'boolean':
      return typeof value === schema.kind ? [] : [`${path}: expected a ${schema.kind}, got ${describe(value)}`];
    case 'null':
      return value === null ? [] : [`${path}: expected null, got ${describe(value)}`];
    case 'number': {
      if (typeof value !== 'number' || !Number.isFinite(value)) return [`${path}: expected a finite number, got ${describe(value)}`];
      if (schema.integer && !Number.isInteger(value)) return [`${path}: expected an integer, got ${value}`];
      if (schema.min !== undefined && value < schema.min) return [`${path}: ${value} is below ${schema.min}`];
      if (schema.max !== undefined && value > schema.max) return [`${path}: ${value} is above ${schema.max}`];
      return [];
    }
    case 'enum':
      return schema.values.includes(value as string) ? [] : [`${path}: expected one of ${schema.values.map((v) => JSON.stringify(v)).join(', ')}, got ${JSON.stringify(value)}`];
    case 'array':
      if (!Array.isArray(value)) return [`${path}: expected an array, got ${describe(value)}`];
      return value.flatMap((item, i) => check(schema.items, item, `${path}[${i}]`));
    case 'object': {
      if (value === null || typeof value !== 'object' || Array.isArray(value)) return [`${path}: expected an object, got ${describe(value)}`];
      const record = value as Record<string, unknown>;
      const errors: string[] = [];
      for (const [key, sub] of Object.entries(schema.properties)) {
        if (key in record) errors.push(...check(sub, record[key], `${path}.${key}`));
        else if (!schema.optional.includes(key)) errors.push(`${path}.${key}: missing`);
      }
      if (!schema.open) for (const key of Object.keys(record)) if (!(key in schema.properties)) errors.push(`${path}.${key}: not in the schema`);
      return errors;
    }
    case 'anyOf': {
      const attempts = schema.options.map((option) => check(option, value, path));
      if (attempts.some((errors) => errors.length === 0)) return [];
      // report the option that came closest, among those of the value's kind (a wrong object, not "expected null")
      const near = value === null ? attempts : attempts.filter((_, i) => schema.options[i].kind !== 'null');
      return (near.length > 0 ? near : attempts).reduce((best, errors) => (errors.length < best.length ? errors : best));
    }
  }
}
