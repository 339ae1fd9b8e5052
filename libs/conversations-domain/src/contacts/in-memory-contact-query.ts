type Query = Record<string, unknown>;

/**
 * Whether a stored document matches a MongoDB query, for the in-memory contact store: the subset the
 * contact filter compiler (libs/contact-filter) and the keyset cursor (listing/list-cursor) produce.
 * `$and`, `$or`, `$nor`; per path: a value (equality, membership in an array, null for missing),
 * `$eq`, `$ne`, `$in`, `$nin`, `$gt`, `$gte`, `$lt`, `$lte`, `$regex`, `$exists`, `$elemMatch`.
 * An operator outside it throws, so a spec never passes on a query this double cannot read.
 */
export function matchesQuery(document: unknown, query: Query): boolean {
  return Object.entries(query).every(([key, condition]) => {
    if (key === '$and') return (condition as Query[]).every((member) => matchesQuery(document, member));
    if (key === '$or') return (condition as Query[]).some((member) => matchesQuery(document, member));
    if (key === '$nor') return !(condition as Query[]).some((member) => matchesQuery(document, member));
    if (key.startsWith('$')) throw new Error(`matchesQuery: unsupported operator ${key}`);
    return matchesPath(valuesAt(document, key.split('.')), condition);
  });
}

/** What a path reaches: its values (an array's elements beside the array itself), and whether it exists. */
interface Reached {
  values: unknown[];
  present: boolean;
}

function valuesAt(document: unknown, path: readonly string[]): Reached {
  if (path.length === 0) return { values: Array.isArray(document) ? [document, ...document] : [document], present: document !== undefined };
  const [head, ...rest] = path;
  if (Array.isArray(document)) {
    if (/^\d+$/.test(head!)) return valuesAt(document[Number(head)], rest);
    const reached = document.map((element) => valuesAt(element, path));
    return { values: reached.flatMap((one) => one.values), present: reached.some((one) => one.present) };
  }
  if (document === null || typeof document !== 'object' || !(head! in document)) return { values: [], present: false };
  return valuesAt((document as Record<string, unknown>)[head!], rest);
}

/** A Date of any realm: structuredClone in a jest environment answers the outer realm's Date. */
function isDate(value: unknown): value is Date {
  return Object.prototype.toString.call(value) === '[object Date]';
}

function isOperatorObject(condition: unknown): condition is Query {
  return typeof condition === 'object' && condition !== null && !isDate(condition) && !Array.isArray(condition) && Object.keys(condition).some((key) => key.startsWith('$'));
}

function matchesPath(reached: Reached, condition: unknown): boolean {
  if (!isOperatorObject(condition)) return equalsAny(reached, condition);
  return Object.entries(condition).every(([operator, operand]) => {
    switch (operator) {
      case '$eq':
        return equalsAny(reached, operand);
      case '$ne':
        return !equalsAny(reached, operand);
      case '$in':
        return (operand as unknown[]).some((one) => equalsAny(reached, one));
      case '$nin':
        return !(operand as unknown[]).some((one) => equalsAny(reached, one));
      case '$gt':
      case '$gte':
      case '$lt':
      case '$lte':
        return reached.values.some((value) => inRange(value, operator, operand));
      case '$regex':
        return reached.values.some((value) => typeof value === 'string' && new RegExp(operand as string).test(value));
      case '$exists':
        return reached.present === operand;
      case '$elemMatch':
        return reached.values.some((value) => Array.isArray(value) && value.some((element) => matchesElement(element, operand as Query)));
      default:
        throw new Error(`matchesQuery: unsupported operator ${operator}`);
    }
  });
}

/** `$elemMatch` holds either a query on the element's fields or operators on the element itself. */
function matchesElement(element: unknown, query: Query): boolean {
  return isOperatorObject(query) ? matchesPath({ values: [element], present: true }, query) : matchesQuery(element, query);
}

/** Equality as MongoDB reads it: null also matches a missing path; an array matches its elements. */
function equalsAny(reached: Reached, wanted: unknown): boolean {
  if (wanted === null && (!reached.present || reached.values.some((value) => value === null || value === undefined))) return true;
  return reached.values.some((value) => sameValue(value, wanted));
}

function sameValue(a: unknown, b: unknown): boolean {
  if (isDate(a) && isDate(b)) return a.getTime() === b.getTime();
  return a === b;
}

/** Ranges compare values of one kind only (numbers, strings, dates), as MongoDB's type bracketing does. */
function inRange(value: unknown, operator: string, bound: unknown): boolean {
  const comparable = (one: unknown) => (isDate(one) ? one.getTime() : one);
  const [a, b] = [comparable(value), comparable(bound)];
  if (isDate(value) !== isDate(bound) || typeof a !== typeof b || (typeof a !== 'number' && typeof a !== 'string')) return false;
  const x = a as number | string;
  const y = b as number | string;
  return operator === '$gt' ? x > y : operator === '$gte' ? x >= y : operator === '$lt' ? x < y : x <= y;
}
