import fc from 'fast-check';

/** A JSON Schema (2020-12, as OpenAPI 3.1 uses it), loosely typed: the generator reads only what it knows. */
export type JsonSchema = { [keyword: string]: any } | boolean;

export interface SchemaArbitraryOptions {
  /** Resolves `#/components/schemas/X` references against the document they came from. */
  resolve(ref: string): JsonSchema;
  /** How often (0..1) a value is replaced by one of another type or an edge value, to probe refusals. */
  offSchemaRate?: number;
  /** Values to use most of the time for properties of these names (references to what exists, so requests get past the lookup). */
  propertyHints?: Record<string, fc.Arbitrary<unknown>>;
}

/** Strings a hostile client sends: NUL, a lone surrogate, RTL marks, whitespace only, astral characters, `$` and `.` keys. */
const HOSTILE_STRINGS = ['\u0000', 'a\u0000b', '\uD800', 'x\uDC00', '\u202Eabc', '   ', '\t\n', '😀'.repeat(3), '$where', 'a.b', '__proto__', ''];

const ANY_JSON: fc.Arbitrary<unknown> = fc.oneof(
  fc.constant(null),
  fc.boolean(),
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.constantFrom(...HOSTILE_STRINGS),
  fc.string(),
  fc.constant({}),
  fc.constant([]),
  fc.constant({ $gt: '' }),
);

/**
 * Values for a JSON Schema: mostly inside it (each property present or not, each branch of an
 * anyOf/oneOf, lengths and counts around their bounds, Unicode beyond the BMP) and, at
 * `offSchemaRate`, outside it. The generator does not decide validity: a validator of the same
 * document does, so it may over-approximate freely (the point is to reach both sides of every rule).
 */
export function arbitraryFor(schema: JsonSchema, options: SchemaArbitraryOptions): fc.Arbitrary<unknown> {
  const offSchemaRate = options.offSchemaRate ?? 0.05;
  const depthLimit = 12;

  const build = (node: JsonSchema, depth: number): fc.Arbitrary<unknown> => {
    if (node === true || depth > depthLimit) return ANY_JSON;
    if (node === false) return ANY_JSON;
    const inside = inSchema(node, depth);
    if (offSchemaRate <= 0) return inside;
    const weight = Math.max(1, Math.round((1 - offSchemaRate) / offSchemaRate));
    return fc.oneof({ arbitrary: inside, weight }, { arbitrary: ANY_JSON, weight: 1 });
  };

  const inSchema = (node: { [keyword: string]: any }, depth: number): fc.Arbitrary<unknown> => {
    if (node['$ref']) return build(options.resolve(node['$ref']), depth + 1);
    if ('const' in node) return fc.constant(node['const']);
    if (Array.isArray(node['enum'])) return fc.constantFrom(...(node['enum'] as unknown[]));
    const branches = [...(node['anyOf'] ?? []), ...(node['oneOf'] ?? [])] as JsonSchema[];
    const base = withoutKeys(node, ['anyOf', 'oneOf']);
    if (branches.length > 0) {
      // A branch may be a whole schema or only constraints (`{required: [...]}`) on this one.
      return fc.oneof(...branches.map((branch) => build(mergeSchemas(base, branch, options.resolve), depth + 1)));
    }
    if (Array.isArray(node['allOf'])) {
      const merged = (node['allOf'] as JsonSchema[]).reduce<JsonSchema>((all, part) => mergeSchemas(all, part, options.resolve), withoutKeys(node, ['allOf']));
      return build(merged, depth + 1);
    }
    const types = typesOf(node);
    return fc.oneof(...types.map((type) => ofType(type, node, depth)));
  };

  const ofType = (type: string, node: { [keyword: string]: any }, depth: number): fc.Arbitrary<unknown> => {
    switch (type) {
      case 'null':
        return fc.constant(null);
      case 'boolean':
        return fc.boolean();
      case 'integer':
        return integerArbitrary(node);
      case 'number':
        return fc.oneof(integerArbitrary(node), fc.double({ noNaN: true, noDefaultInfinity: true, min: node['minimum'], max: node['maximum'] }));
      case 'string':
        return stringArbitrary(node);
      case 'array': {
        const items = build(node['items'] ?? true, depth + 1);
        const minItems = node['minItems'] ?? 0;
        const maxItems = Math.min(node['maxItems'] ?? 6, minItems + 12);
        return fc.array(items, { minLength: Math.max(0, minItems - 1), maxLength: maxItems + 1 });
      }
      case 'object':
        return objectArbitrary(node, depth);
      default:
        return ANY_JSON;
    }
  };

  const objectArbitrary = (node: { [keyword: string]: any }, depth: number): fc.Arbitrary<unknown> => {
    const properties = (node['properties'] ?? {}) as Record<string, JsonSchema>;
    const required = new Set<string>(node['required'] ?? []);
    const entries = Object.entries(properties).map(([name, property]) => {
      const hint = options.propertyHints?.[name];
      const value = hint ? fc.oneof({ arbitrary: hint, weight: 3 }, { arbitrary: build(property, depth + 1), weight: 1 }) : build(property, depth + 1);
      // A required property is nearly always there; an optional one half of the time.
      const presence = required.has(name) ? fc.oneof({ arbitrary: fc.constant(true), weight: 19 }, { arbitrary: fc.constant(false), weight: 1 }) : fc.boolean();
      return fc.tuple(fc.constant(name), presence, value);
    });
    const extra = node['additionalProperties'] === false ? fc.constant([]) : fc.array(fc.tuple(fc.constantFrom('extra', '$set', 'a.b', 'constructor'), ANY_JSON), { maxLength: 1 });
    return fc.tuple(fc.tuple(...entries), extra).map(([chosen, extras]) => {
      const object: Record<string, unknown> = {};
      for (const [name, present, value] of chosen) if (present) object[name] = value;
      for (const [name, value] of extras) if (!(name in properties)) Object.defineProperty(object, name, { value, enumerable: true, writable: true, configurable: true });
      return object;
    });
  };

  return build(schema, 0);
}

function integerArbitrary(node: { [keyword: string]: any }): fc.Arbitrary<number> {
  const min = node['minimum'] ?? (node['exclusiveMinimum'] !== undefined ? node['exclusiveMinimum'] + 1 : -1000);
  const max = node['maximum'] ?? (node['exclusiveMaximum'] !== undefined ? node['exclusiveMaximum'] - 1 : Math.max(min, 0) + 1000);
  const bounds = [min - 1, min, max, max + 1].filter(Number.isSafeInteger);
  return fc.oneof(fc.integer({ min: Math.min(min, max), max: Math.max(min, max) }), fc.constantFrom(...bounds));
}

function stringArbitrary(node: { [keyword: string]: any }): fc.Arbitrary<string> {
  const minLength: number = node['minLength'] ?? 0;
  const maxLength: number | undefined = node['maxLength'];
  const around = (length: number) => [length - 1, length, length + 1].filter((value) => value >= 0);
  const lengths = [...around(minLength), ...(maxLength === undefined ? [] : around(maxLength))];
  const format = node['format'];
  const candidates: fc.Arbitrary<string>[] = [];
  if (format === 'uuid') candidates.push(fc.uuid(), fc.uuid().map((id) => id.toUpperCase()), fc.constant(`urn:uuid:${'0'.repeat(8)}-0000-0000-0000-${'0'.repeat(12)}`));
  else if (format === 'date') candidates.push(fc.date({ min: new Date('1900-01-01'), max: new Date('2200-12-31'), noInvalidDate: true }).map((date) => date.toISOString().slice(0, 10)));
  else if (format === 'date-time') candidates.push(fc.date({ min: new Date('1900-01-01'), max: new Date('2200-12-31'), noInvalidDate: true }).map((date) => date.toISOString()));
  if (typeof node['pattern'] === 'string') {
    const matching = patternArbitrary(node['pattern']);
    if (matching) candidates.push(matching.filter((value) => value.length <= (maxLength ?? 256)));
  }
  if (candidates.length === 0 || format === undefined) {
    const upTo = Math.min(maxLength ?? 32, 64);
    candidates.push(
      fc.string({ minLength: Math.min(minLength, upTo), maxLength: upTo }),
      fc.string({ minLength: Math.min(minLength, upTo), maxLength: upTo, unit: 'binary' }),
      fc.constantFrom(...HOSTILE_STRINGS),
      // Lengths at the bounds, in ASCII and in astral characters (one code point, two UTF-16 units).
      fc.constantFrom(...lengths).chain((length) => fc.constantFrom('a'.repeat(length), '😀'.repeat(length), `${'a'.repeat(Math.max(0, length - 1))}😀`)),
    );
  }
  return fc.oneof(...candidates);
}

/** Strings matching a pattern, or none when fast-check cannot build them (lookaheads): the other candidates cover it then. */
function patternArbitrary(pattern: string): fc.Arbitrary<string> | undefined {
  try {
    return fc.stringMatching(new RegExp(pattern, 'u'));
  } catch {
    return undefined;
  }
}

function typesOf(node: { [keyword: string]: any }): string[] {
  const type = node['type'];
  if (Array.isArray(type)) return type as string[];
  if (typeof type === 'string') return [type];
  if (node['properties']) return ['object'];
  if (node['items']) return ['array'];
  return ['null', 'boolean', 'integer', 'string', 'object', 'array'];
}

function withoutKeys(node: { [keyword: string]: any }, keys: string[]): { [keyword: string]: any } {
  const copy = { ...node };
  for (const key of keys) delete copy[key];
  return copy;
}

/** `base` narrowed by `extra`: properties and required lists merged, the rest of `extra` wins. */
function mergeSchemas(base: JsonSchema, extra: JsonSchema, resolve: (ref: string) => JsonSchema): JsonSchema {
  const left = typeof base === 'object' && base['$ref'] ? resolve(base['$ref']) : base;
  const right = typeof extra === 'object' && extra['$ref'] ? resolve(extra['$ref']) : extra;
  if (typeof left !== 'object') return right;
  if (typeof right !== 'object') return left;
  return {
    ...left,
    ...right,
    properties: { ...(left['properties'] ?? {}), ...(right['properties'] ?? {}) },
    required: [...new Set([...(left['required'] ?? []), ...(right['required'] ?? [])])],
  };
}
