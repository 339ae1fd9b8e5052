import { type ConditionClass, type QueryShape, conjunctionsOf } from '@cmsg/dal';

/** An index as declared on a schema (or created by the driver, for GridFS). */
export interface DeclaredIndex {
  collection: string;
  keys: [string, number][];
  unique: boolean;
}

/** How one alternative of a filter (the whole filter when it has no `$or`) is served. */
export interface AlternativeVerdict {
  conditions: Record<string, ConditionClass>;
  /** The index that serves it; null when none does, or when none is needed (see `how`). */
  index: DeclaredIndex | null;
  served: boolean;
  /** Why it is served, or what is missing. */
  how: string;
}

export interface ShapeVerdict {
  served: boolean;
  alternatives: AlternativeVerdict[];
}

/** Conditions an index prefix holds as equality: `$in` and `$all` too (bounds on each value, merged in order). */
const EQUALITY: ReadonlySet<ConditionClass> = new Set(['eq', 'in', 'all']);
/** Conditions no index bound expresses (`$size`, `$expr`...): only a unique equality elsewhere in the filter saves them. */
const UNBOUNDABLE: ReadonlySet<ConditionClass> = new Set(['size', 'other']);

/**
 * Whether MongoDB serves a query shape from one of the declared indexes, by the rule of
 * docs/data-layer.md: an index whose leading keys are the filter's equality fields (in any order),
 * then the sort fields in order with the index's directions (or all reversed), then at most one
 * range field. A range on a sort field is served by the sort keys. Beside that rule:
 * - a filter that pins every key of a unique index (the `_id` index included) by equality is
 *   served by it whatever else it holds: it examines one document per value;
 * - an empty filter is served when it wants one document without a sort (any first document), or
 *   for a `count` (MongoDB answers from the collection's metadata);
 * - `distinct` is served like a sort on its key after the equality fields (a distinct scan);
 * - a sorted page may also filter on keys the index holds after its sort keys (equalities or
 *   ranges, any number, any order): the index is read in the sort order from its leading
 *   equality fields, and MongoDB checks the other conditions on each key it reads, so it fetches
 *   only the documents that match. The keys read grow with the leading equality's range, as they
 *   do for the one range the rule above allows.
 * Each `$or` alternative needs an index of its own.
 */
export function judgeQueryShape(shape: QueryShape, indexes: readonly DeclaredIndex[]): ShapeVerdict {
  const own = indexes.filter((index) => index.collection === shape.collection);
  const alternatives = conjunctionsOf(shape.filter).map((conditions) => judgeConjunction(shape, conditions, own));
  return { served: alternatives.every((alternative) => alternative.served), alternatives };
}

function judgeConjunction(shape: QueryShape, conditions: Record<string, ConditionClass>, indexes: readonly DeclaredIndex[]): AlternativeVerdict {
  const fields = Object.keys(conditions);
  const equalities = new Set(fields.filter((field) => EQUALITY.has(conditions[field]!)));
  const verdict = (index: DeclaredIndex | null, served: boolean, how: string): AlternativeVerdict => ({ conditions, index, served, how });

  const unique = indexes.find((index) => index.unique && index.keys.every(([key]) => equalities.has(key)));
  if (unique) return verdict(unique, true, 'equality on every key of a unique index');

  const sort: [string, number][] = shape.command === 'distinct' && shape.key !== undefined ? [[shape.key, 1]] : shape.sort;
  if (fields.length === 0 && sort.length === 0) {
    if (shape.command === 'count') return verdict(null, true, 'no filter: counted from the collection metadata');
    if (shape.one) return verdict(null, true, 'no filter, no sort, one document: the first one found');
    return verdict(null, false, 'no filter: a collection scan');
  }
  if (sort.some(([, direction]) => direction !== 1 && direction !== -1)) return verdict(null, false, 'a $meta sort: no index order serves it');
  const unboundable = fields.filter((field) => UNBOUNDABLE.has(conditions[field]!));
  if (unboundable.length > 0) return verdict(null, false, `no index bounds express ${unboundable.map((field) => `${field}: ${conditions[field]}`).join(', ')}`);

  // Sorting on a field the filter pins is sorting on a constant.
  const sortKeys = sort.filter(([field]) => !equalities.has(field));
  const ranges = fields.filter((field) => !equalities.has(field) && !sortKeys.some(([key]) => key === field));
  for (const index of indexes) {
    if (servesWithPrefix(index, equalities, sortKeys, ranges)) return verdict(index, true, 'equality, sort, range prefix');
  }
  for (const index of indexes) {
    if (servesSortedWithKeyConditions(index, equalities, sortKeys, ranges)) return verdict(index, true, 'equality, sort, then conditions on the keys after the sort');
  }
  return verdict(null, false, missingPart(indexes, equalities, sortKeys, ranges));
}

function servesWithPrefix(index: DeclaredIndex, equalities: ReadonlySet<string>, sortKeys: [string, number][], ranges: string[]): boolean {
  const keys = index.keys;
  const needed = equalities.size + sortKeys.length + (ranges.length === 1 ? 1 : 0);
  if (ranges.length > 1 || keys.length < needed) return false;
  for (let position = 0; position < equalities.size; position += 1) {
    if (!equalities.has(keys[position]![0])) return false;
  }
  let orientation = 0;
  for (let offset = 0; offset < sortKeys.length; offset += 1) {
    const [key, direction] = keys[equalities.size + offset]!;
    const [field, wanted] = sortKeys[offset]!;
    if (key !== field) return false;
    const relative = direction === wanted ? 1 : -1;
    if (orientation !== 0 && relative !== orientation) return false;
    orientation = relative;
  }
  return ranges.length === 0 || keys[equalities.size + sortKeys.length]![0] === ranges[0];
}

/**
 * A sorted read whose leading equality fields (at least one) and sort keys are an index prefix, and
 * whose other conditions are all on keys of that index after the sort keys.
 */
function servesSortedWithKeyConditions(index: DeclaredIndex, equalities: ReadonlySet<string>, sortKeys: [string, number][], ranges: string[]): boolean {
  const keys = index.keys;
  if (sortKeys.length === 0) return false;
  let leading = 0;
  while (leading < keys.length && equalities.has(keys[leading]![0])) leading += 1;
  if (leading === 0 || keys.length < leading + sortKeys.length) return false;
  let orientation = 0;
  for (let offset = 0; offset < sortKeys.length; offset += 1) {
    const [key, direction] = keys[leading + offset]!;
    const [field, wanted] = sortKeys[offset]!;
    if (key !== field) return false;
    const relative = direction === wanted ? 1 : -1;
    if (orientation !== 0 && relative !== orientation) return false;
    orientation = relative;
  }
  const leadingKeys = new Set(keys.slice(0, leading).map(([key]) => key));
  const trailingKeys = new Set(keys.slice(leading + sortKeys.length).map(([key]) => key));
  const conditions = [...[...equalities].filter((field) => !leadingKeys.has(field)), ...ranges];
  return conditions.every((field) => trailingKeys.has(field));
}

/** What the best candidate lacks: the longest run of the wanted prefix any declared index holds. */
function missingPart(indexes: readonly DeclaredIndex[], equalities: ReadonlySet<string>, sortKeys: [string, number][], ranges: string[]): string {
  const wanted = [
    ...[...equalities].sort().map((field) => `${field} (equality)`),
    ...sortKeys.map(([field, direction]) => `${field} ${direction} (sort)`),
    ...ranges.map((field) => `${field} (range)`),
  ];
  let best: DeclaredIndex | undefined;
  let bestLength = 0;
  for (const index of indexes) {
    let length = 0;
    while (length < index.keys.length && length < equalities.size && equalities.has(index.keys[length]![0])) length += 1;
    if (length > bestLength) [best, bestLength] = [index, length];
  }
  const needs = `needs an index on ${wanted.join(', ')}${ranges.length > 1 ? ' (more than one range field: no single index prefix)' : ''}`;
  return best ? `${needs}; closest: ${describeIndex(best)} (its first ${bestLength} key(s) match the equality fields)` : needs;
}

export function describeIndex(index: DeclaredIndex): string {
  return `{${index.keys.map(([key, direction]) => `${key}: ${direction}`).join(', ')}}${index.unique ? ' unique' : ''}`;
}
