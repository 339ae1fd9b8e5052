type Fields = Record<string, unknown>;
type Comparable = Date | string | number;

/**
 * Whether a row matches a keyset condition in the shapes the use cases build (list-cursor.ts,
 * timeline-merge.ts): `{}`, `$or` of branches, a field equal to a value, or compared with
 * `$gt`/`$gte`/`$lt`/`$lte`. Any other operator throws, so a change of the shape shows in the specs.
 */
export function matchesKeyset(row: object, condition: Fields): boolean {
  return Object.entries(condition).every(([field, expected]) => {
    if (field === '$or') return (expected as Fields[]).some((branch) => matchesKeyset(row, branch));
    const actual = (row as Fields)[field] as Comparable;
    if (isComparable(expected)) return compare(actual, expected) === 0;
    return Object.entries(expected as Fields).every(([operator, bound]) => holds(operator, compare(actual, bound as Comparable)));
  });
}

/** Rows in keyset order (`field`, then _id), `direction` 1 oldest first, -1 newest first. */
export function keysetOrder<Row extends { _id: string }>(field: keyof Row, direction: 1 | -1): (a: Row, b: Row) => number {
  return (a, b) => direction * (compare(a[field] as Comparable, b[field] as Comparable) || compare(a._id, b._id));
}

function isComparable(value: unknown): value is Comparable {
  return value instanceof Date || typeof value === 'string' || typeof value === 'number';
}

function compare(a: Comparable, b: Comparable): number {
  const [x, y] = [a instanceof Date ? a.getTime() : a, b instanceof Date ? b.getTime() : b];
  return x < y ? -1 : x > y ? 1 : 0;
}

function holds(operator: string, comparison: number): boolean {
  switch (operator) {
    case '$gt':
      return comparison > 0;
    case '$gte':
      return comparison >= 0;
    case '$lt':
      return comparison < 0;
    case '$lte':
      return comparison <= 0;
    default:
      throw new Error(`matchesKeyset: unexpected operator ${operator}`);
  }
}
