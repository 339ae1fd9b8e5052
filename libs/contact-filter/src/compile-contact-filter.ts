import {
  attributeKeyOf,
  isAttributeField,
  isFilterGroup,
  type ContactField,
  type ContactFilter,
  type FilterCondition,
  type FilterScalar,
  type NestedFilterGroup,
} from './contact-filter';

type MongoFilter = Record<string, unknown>;

/** Where each contact field lives on the stored contact document (names and email as folded keys). */
const STORED_PATH: Record<ContactField, string> = {
  first_name: 'first_name_key',
  last_name: 'last_name_key',
  phone: 'phone_key',
  email: 'email_key',
  external_id: 'external_id',
  tag: 'tag_ids',
  inbox_status: 'inbox_status',
  'consent.marketing': 'consent.marketing.status',
  'consent.utility': 'consent.utility.status',
  created_at: 'created_at',
  updated_at: 'updated_at',
  last_inbound_at: 'last_inbound_at',
};

const RANGE_OPERATOR = { gt: '$gt', gte: '$gte', lt: '$lt', lte: '$lte' } as const;

/**
 * The MongoDB filter of a parsed filter over the stored contact document, without `business_id`:
 * the repository adds the tenant key (combine with `$and`, since the top is an `$and` / `$or`).
 * Only plain query operators, so every equality, `$in`, range and anchored prefix can use an index.
 */
export function compileContactFilter(filter: ContactFilter): MongoFilter {
  return groupFilter(filter);
}

function groupFilter(group: ContactFilter | NestedFilterGroup): MongoFilter {
  const members = group.members.map((member) => (isFilterGroup(member) ? groupFilter(member) : conditionFilter(member)));
  return { [`$${group.combinator}`]: members };
}

function conditionFilter(condition: FilterCondition): MongoFilter {
  if (isAttributeField(condition.field)) return attributeFilter(attributeKeyOf(condition.field), condition);
  const field = condition.field as ContactField;
  if (field === 'tag') return tagFilter(condition);
  if (field === 'consent.marketing' || field === 'consent.utility') return consentFilter(STORED_PATH[field], condition);
  return scalarFilter(STORED_PATH[field], condition);
}

/** A field holding one value (or null, or missing): `neq`/`nin` match null and missing as `$ne`/`$nin` do. */
function scalarFilter(path: string, condition: FilterCondition): MongoFilter {
  switch (condition.op) {
    case 'eq':
      return { [path]: condition.value };
    case 'neq':
      return { [path]: { $ne: condition.value } };
    case 'in':
      return { [path]: { $in: condition.value } };
    case 'nin':
      return { [path]: { $nin: condition.value } };
    case 'gt':
    case 'gte':
    case 'lt':
    case 'lte':
      return { [path]: { [RANGE_OPERATOR[condition.op]]: condition.value } };
    case 'starts_with':
      return { [path]: prefixPattern(condition.value) };
    case 'exists':
      return { [path]: condition.value ? { $ne: null } : null };
  }
}

/** `tag_ids` is an array: equality is membership, and "has a tag" is "has a first element". */
function tagFilter(condition: FilterCondition): MongoFilter {
  if (condition.op === 'exists') return { 'tag_ids.0': { $exists: condition.value } };
  return scalarFilter(STORED_PATH.tag, condition);
}

/**
 * Older contacts have no consent stored, which means `unknown`: wherever `unknown` is asked for,
 * null (which also matches a missing field) is asked for beside it.
 */
function consentFilter(path: string, condition: FilterCondition): MongoFilter {
  if (condition.op === 'eq' || condition.op === 'neq') {
    if (condition.value !== 'unknown') return scalarFilter(path, condition);
    return { [path]: { [condition.op === 'eq' ? '$in' : '$nin']: ['unknown', null] } };
  }
  if (condition.op === 'in' || condition.op === 'nin') {
    const values = condition.value.includes('unknown') ? [...condition.value, null] : condition.value;
    return { [path]: { [`$${condition.op}`]: values } };
  }
  return scalarFilter(path, condition);
}

/**
 * Attributes are stored as `[{ k, v }]` behind one `{business_id, attributes.k, attributes.v}`
 * index, so every value condition is an `$elemMatch` on `{k, v}`. A negation is `$nor` of the
 * positive match: a contact without the key matches `neq`, as MongoDB's `$ne` does on a field.
 */
function attributeFilter(key: string, condition: FilterCondition): MongoFilter {
  const having = (value: unknown): MongoFilter => ({ attributes: { $elemMatch: { k: key, v: value } } });
  switch (condition.op) {
    case 'eq':
      return having(condition.value);
    case 'neq':
      return { $nor: [having(condition.value)] };
    case 'in':
      return having({ $in: condition.value });
    case 'nin':
      return { $nor: [having({ $in: condition.value })] };
    case 'gt':
    case 'gte':
    case 'lt':
    case 'lte':
      return having({ [RANGE_OPERATOR[condition.op]]: condition.value });
    case 'starts_with':
      return having(prefixPattern(condition.value));
    case 'exists':
      return { 'attributes.k': condition.value ? key : { $ne: key } };
  }
}

/** An anchored prefix with every metacharacter escaped: MongoDB serves `^literal` from an index. */
function prefixPattern(prefix: FilterScalar): { $regex: string } {
  return { $regex: `^${String(prefix).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}` };
}
