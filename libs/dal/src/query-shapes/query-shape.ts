/**
 * The shape of a query as an index sees it: which fields a command's filter constrains and how
 * (equality, range, ...), and its sort. Values are dropped, so the shapes of one repository method
 * are one shape whatever it is called with. The integration suite records the shapes the apps send
 * (query-shape-recorder.ts) and a check matches each against the declared indexes (docs/data-layer.md).
 */

/** How a filter constrains one field: `eq` and `in` pin it (an index prefix can hold them in any order); the rest bound it. */
export type ConditionClass = 'eq' | 'in' | 'range' | 'ne' | 'nin' | 'exists' | 'regex' | 'elemMatch' | 'size' | 'all' | 'not' | 'other';

export interface FilterShape {
  /** Dotted field path -> how the filter constrains it. */
  fields: Record<string, ConditionClass>;
  /** A `$or`: the filter matches when `fields` and any one alternative hold. */
  anyOf?: FilterShape[];
}

export type QueryCommand = 'find' | 'aggregate' | 'update' | 'delete' | 'findAndModify' | 'count' | 'distinct';

export interface QueryShape {
  collection: string;
  command: QueryCommand;
  filter: FilterShape;
  /** Sort keys in order, 1 or -1 (a `$meta` sort is recorded as 0). */
  sort: [string, number][];
  /** The command reads or changes at most one document (findOne, updateOne, findAndModify...). */
  one: boolean;
  /** distinct: the field whose values it lists. */
  key?: string;
}

const RANGE_OPERATORS = new Set(['$gt', '$gte', '$lt', '$lte']);
const OPERATOR_CLASSES: Record<string, ConditionClass> = {
  $eq: 'eq',
  $in: 'in',
  $ne: 'ne',
  $nin: 'nin',
  $exists: 'exists',
  $regex: 'regex',
  $options: 'regex',
  $elemMatch: 'elemMatch',
  $size: 'size',
  $all: 'all',
  $not: 'not',
};
/** Alternatives beyond this many (a product of several `$or`) are not expanded further. */
const MAX_ALTERNATIVES = 64;

/** The query shapes of one command as the driver sends it (commandStarted's `command`); none for commands that query nothing. */
export function queryShapesOf(commandName: string, command: Record<string, unknown>): QueryShape[] {
  switch (commandName) {
    case 'find':
      return [shape(command['find'], 'find', command['filter'], command['sort'], command['limit'] === 1)];
    case 'findAndModify':
      return [shape(command['findAndModify'], 'findAndModify', command['query'], command['sort'], true)];
    case 'count':
      return [shape(command['count'], 'count', command['query'], undefined, false)];
    case 'distinct':
      return [{ ...shape(command['distinct'], 'distinct', command['query'], undefined, false), key: String(command['key']) }];
    case 'update':
      return statements(command['updates']).map((update) => shape(command['update'], 'update', update['q'], update['sort'], update['multi'] !== true));
    case 'delete':
      return statements(command['deletes']).map((deletion) => shape(command['delete'], 'delete', deletion['q'], undefined, deletion['limit'] === 1));
    case 'aggregate':
      return aggregateShapes(command);
    default:
      return [];
  }
}

function shape(collection: unknown, command: QueryCommand, filter: unknown, sort: unknown, one: boolean): QueryShape {
  return { collection: String(collection), command, filter: filterShape(filter), sort: sortShape(sort), one };
}

function statements(value: unknown): Record<string, unknown>[] {
  return Array.isArray(value) ? value.filter(isPlainObject) : [];
}

/**
 * A pipeline's leading `$match` and `$sort` stages are what an index can serve (MongoDB moves a
 * `$match` ahead of a `$sort`); a `$lookup` on a foreign field queries that collection by equality.
 * Change streams and pipelines without a collection query nothing an index serves.
 */
function aggregateShapes(command: Record<string, unknown>): QueryShape[] {
  const collection = command['aggregate'];
  const pipeline = Array.isArray(command['pipeline']) ? command['pipeline'].filter(isPlainObject) : [];
  if (typeof collection !== 'string' || pipeline.some((stage) => '$changeStream' in stage)) return [];
  const matches: unknown[] = [];
  let sort: unknown;
  for (const stage of pipeline) {
    if ('$match' in stage) matches.push(stage['$match']);
    else if ('$sort' in stage && sort === undefined) sort = stage['$sort'];
    else break;
  }
  const leading = shape(collection, 'aggregate', matches.length === 1 ? matches[0] : { $and: matches }, sort, false);
  const lookups = pipeline
    .map((stage) => stage['$lookup'])
    .filter(isPlainObject)
    .filter((lookup) => typeof lookup['from'] === 'string' && typeof lookup['foreignField'] === 'string')
    .map((lookup) => shape(lookup['from'], 'aggregate', { [String(lookup['foreignField'])]: 0 }, undefined, false));
  return [leading, ...lookups];
}

export function filterShape(filter: unknown): FilterShape {
  const shaped: FilterShape = { fields: {} };
  if (!isPlainObject(filter)) return shaped;
  for (const [key, value] of Object.entries(filter)) {
    if (key === '$and' && Array.isArray(value)) {
      for (const clause of value) mergeInto(shaped, filterShape(clause));
    } else if (key === '$or' && Array.isArray(value)) {
      mergeInto(shaped, { fields: {}, anyOf: value.map(filterShape) });
    } else if (key === '$nor' && Array.isArray(value)) {
      for (const clause of value) for (const field of allFields(filterShape(clause))) addCondition(shaped.fields, field, 'not');
    } else if (key.startsWith('$')) {
      // $expr, $text, $where, $comment...: nothing an index prefix serves, except $comment.
      if (key !== '$comment') addCondition(shaped.fields, key, 'other');
    } else {
      for (const [field, condition] of fieldConditions(key, value)) addCondition(shaped.fields, field, condition);
    }
  }
  return shaped;
}

/** One field's condition; an `$elemMatch` on documents constrains the sub-fields as a multikey index on them sees it. */
function fieldConditions(field: string, value: unknown): [string, ConditionClass][] {
  if (value instanceof RegExp || isBsonType(value, 'BSONRegExp')) return [[field, 'regex']];
  if (!isPlainObject(value)) return [[field, 'eq']];
  const operators = Object.keys(value);
  if (operators.length === 0 || !operators.every((operator) => operator.startsWith('$'))) return [[field, 'eq']];
  const elemMatch = value['$elemMatch'];
  if (operators.length === 1 && isPlainObject(elemMatch) && Object.keys(elemMatch).some((key) => !key.startsWith('$'))) {
    return allConditions(filterShape(elemMatch)).map(([subField, condition]) => [`${field}.${subField}`, condition]);
  }
  return [[field, operators.map(operatorClass).reduce(strongerCondition)]];
}

function operatorClass(operator: string): ConditionClass {
  if (RANGE_OPERATORS.has(operator)) return 'range';
  return OPERATOR_CLASSES[operator] ?? 'other';
}

/** Two conditions on one field: an equality pins it whatever else holds; otherwise the first kind is kept. */
function strongerCondition(a: ConditionClass, b: ConditionClass): ConditionClass {
  if (a === 'eq' || b === 'eq') return 'eq';
  if (a === 'in' || b === 'in') return 'in';
  return a;
}

function addCondition(fields: Record<string, ConditionClass>, field: string, condition: ConditionClass): void {
  const existing = fields[field];
  fields[field] = existing === undefined ? condition : strongerCondition(existing, condition);
}

function mergeInto(target: FilterShape, source: FilterShape): void {
  for (const [field, condition] of Object.entries(source.fields)) addCondition(target.fields, field, condition);
  if (!source.anyOf) return;
  if (!target.anyOf) {
    target.anyOf = source.anyOf;
    return;
  }
  // (a or b) and (c or d) = ac or ad or bc or bd
  const product: FilterShape[] = [];
  for (const left of target.anyOf) {
    for (const right of source.anyOf) {
      if (product.length >= MAX_ALTERNATIVES) break;
      const both: FilterShape = { fields: { ...left.fields } };
      if (left.anyOf) both.anyOf = left.anyOf;
      mergeInto(both, right);
      product.push(both);
    }
  }
  target.anyOf = product;
}

function allConditions(filter: FilterShape): [string, ConditionClass][] {
  return [...Object.entries(filter.fields), ...(filter.anyOf ?? []).flatMap(allConditions)];
}

function allFields(filter: FilterShape): string[] {
  return allConditions(filter).map(([field]) => field);
}

/**
 * The alternatives a filter matches by, each a plain conjunction of field conditions (the `$or`
 * branches with the fields beside them): MongoDB plans each `$or` branch with an index of its own.
 */
export function conjunctionsOf(filter: FilterShape): Record<string, ConditionClass>[] {
  if (!filter.anyOf || filter.anyOf.length === 0) return [{ ...filter.fields }];
  return filter.anyOf.flatMap(conjunctionsOf).map((branch) => {
    const merged = { ...filter.fields };
    for (const [field, condition] of Object.entries(branch)) addCondition(merged, field, condition);
    return merged;
  });
}

/** The driver sends a find's or findAndModify's sort as a Map (key order is the sort order); a $sort stage is a document. */
function sortShape(sort: unknown): [string, number][] {
  const entries = sort instanceof Map ? [...sort.entries()] : isPlainObject(sort) ? Object.entries(sort) : [];
  return entries.map(([field, direction]) => [field, direction === 1 || direction === -1 ? direction : sortDirection(direction)]);
}

function sortDirection(direction: unknown): number {
  if (direction === 'asc' || direction === 'ascending') return 1;
  if (direction === 'desc' || direction === 'descending') return -1;
  return 0;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== 'object' || Array.isArray(value) || '_bsontype' in value) return false;
  const prototype = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}

function isBsonType(value: unknown, type: string): boolean {
  return value !== null && typeof value === 'object' && (value as { _bsontype?: unknown })._bsontype === type;
}

/** The shape as one line, fields sorted: `{business_id: eq, $or: [{sort_at: range}, {_id: range, sort_at: eq}]}`. */
export function describeFilter(filter: FilterShape): string {
  const parts = Object.keys(filter.fields)
    .sort()
    .map((field) => `${field}: ${filter.fields[field]}`);
  if (filter.anyOf) parts.push(`$or: [${filter.anyOf.map(describeFilter).join(', ')}]`);
  return `{${parts.join(', ')}}`;
}

/** The whole shape as one line; also its identity (two commands with one description are one shape). */
export function describeQueryShape(shape: QueryShape): string {
  const sort = shape.sort.length > 0 ? ` sort {${shape.sort.map(([field, direction]) => `${field}: ${direction}`).join(', ')}}` : '';
  const key = shape.key === undefined ? '' : ` key ${shape.key}`;
  return `${shape.command} ${shape.collection} ${describeFilter(shape.filter)}${sort}${key}${shape.one ? ' one' : ''}`;
}
