import type { AttributeDefinition } from './attribute-definition';
import { isIsoDate, parseDateTime } from './calendar-date';
import { ATTRIBUTE_FIELD_PREFIX, CONTACT_FIELDS, type ContactField, type FilterField, type FilterOp, type FilterScalar } from './contact-filter';
import { invalidRequest } from './invalid-request';
import { MAX_TEXT_ATTRIBUTE_LENGTH } from './limits';
import { foldPrefix, foldText, phoneDigits } from './text-keys';

/** What a field accepts: its ops, and how one value (of eq, in, a range...) becomes its stored form. */
export interface FieldRule {
  readonly field: FilterField;
  readonly ops: readonly FilterOp[];
  scalar(value: unknown, op: FilterOp, path: string): FilterScalar;
}

type ScalarParser = FieldRule['scalar'];

const RANGE_OPS: readonly FilterOp[] = ['gt', 'gte', 'lt', 'lte'];
const IDENTIFIER_OPS: readonly FilterOp[] = ['eq', 'neq', 'in', 'nin', 'starts_with', 'exists'];
const ENUM_OPS: readonly FilterOp[] = ['eq', 'neq', 'in', 'nin'];
const INSTANT_OPS: readonly FilterOp[] = ['eq', 'neq', ...RANGE_OPS];
const UUID = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;

const foldedText: ScalarParser = (value, op, path) => {
  const folded = typeof value === 'string' ? (op === 'starts_with' ? foldPrefix(value) : foldText(value)) : '';
  if (folded === '') throw invalidRequest(path, 'must be a non-blank string');
  return folded;
};

const phone: ScalarParser = (value, _op, path) => {
  const digits = typeof value === 'string' ? phoneDigits(value) : '';
  if (digits === '') throw invalidRequest(path, 'must be a string holding at least one digit');
  return digits;
};

const exactText: ScalarParser = (value, _op, path) => {
  if (typeof value !== 'string' || value === '') throw invalidRequest(path, 'must be a non-empty string');
  return value;
};

/** Lower-cased as the seed file stores uuids: a uuid's hex digits are case-insensitive (RFC 9562). */
const tagUuid: ScalarParser = (value, _op, path) => {
  if (typeof value !== 'string' || !UUID.test(value)) throw invalidRequest(path, 'must be a tag uuid');
  return value.toLowerCase();
};

const instant: ScalarParser = (value, _op, path) => {
  const parsed = typeof value === 'string' ? parseDateTime(value) : null;
  if (parsed === null) throw invalidRequest(path, 'must be an RFC 3339 date-time with its offset, e.g. 2025-01-31T18:00:00Z');
  return parsed;
};

function oneOf(values: readonly string[]): ScalarParser {
  return (value, _op, path) => {
    if (typeof value !== 'string' || !values.includes(value)) throw invalidRequest(path, `must be one of ${values.map((one) => JSON.stringify(one)).join(', ')}`);
    return value;
  };
}

const CONSENT_STATUSES = ['opted_in', 'opted_out', 'unknown'];

const CONTACT_FIELD_RULES: Record<ContactField, Omit<FieldRule, 'field'>> = {
  first_name: { ops: IDENTIFIER_OPS, scalar: foldedText },
  last_name: { ops: IDENTIFIER_OPS, scalar: foldedText },
  email: { ops: IDENTIFIER_OPS, scalar: foldedText },
  phone: { ops: IDENTIFIER_OPS, scalar: phone },
  external_id: { ops: IDENTIFIER_OPS, scalar: exactText },
  tag: { ops: ['eq', 'neq', 'in', 'nin', 'exists'], scalar: tagUuid },
  inbox_status: { ops: ENUM_OPS, scalar: oneOf(['pending', 'resolved']) },
  'consent.marketing': { ops: ENUM_OPS, scalar: oneOf(CONSENT_STATUSES) },
  'consent.utility': { ops: ENUM_OPS, scalar: oneOf(CONSENT_STATUSES) },
  created_at: { ops: INSTANT_OPS, scalar: instant },
  updated_at: { ops: INSTANT_OPS, scalar: instant },
  last_inbound_at: { ops: [...INSTANT_OPS, 'exists'], scalar: instant },
};

const attributeText: ScalarParser = (value, op, path) => {
  if (typeof value !== 'string' || [...value].length > MAX_TEXT_ATTRIBUTE_LENGTH) {
    throw invalidRequest(path, `must be a string of at most ${MAX_TEXT_ATTRIBUTE_LENGTH} characters (text attribute)`);
  }
  // An empty prefix would be `exists`: say so rather than accept a second spelling of it.
  if (op === 'starts_with' && value === '') throw invalidRequest(path, 'must be a non-empty prefix (use exists to ask for any value)');
  return value;
};

const attributeNumber: ScalarParser = (value, _op, path) => {
  if (typeof value !== 'number' || !Number.isFinite(value)) throw invalidRequest(path, 'must be a finite number (number attribute)');
  return value === 0 ? 0 : value;
};

const attributeBoolean: ScalarParser = (value, _op, path) => {
  if (typeof value !== 'boolean') throw invalidRequest(path, 'must be true or false (boolean attribute)');
  return value;
};

const attributeDate: ScalarParser = (value, _op, path) => {
  if (typeof value !== 'string' || !isIsoDate(value)) throw invalidRequest(path, 'must be a real date written YYYY-MM-DD (date attribute)');
  return value;
};

function attributeRule(definition: AttributeDefinition): Omit<FieldRule, 'field'> {
  switch (definition.type) {
    case 'text':
      return { ops: ['eq', 'neq', 'in', 'nin', 'starts_with', ...RANGE_OPS, 'exists'], scalar: attributeText };
    case 'number':
      return { ops: ['eq', 'neq', 'in', 'nin', ...RANGE_OPS, 'exists'], scalar: attributeNumber };
    case 'boolean':
      return { ops: ['eq', 'neq', 'exists'], scalar: attributeBoolean };
    case 'date':
      return { ops: ['eq', 'neq', 'in', 'nin', ...RANGE_OPS, 'exists'], scalar: attributeDate };
    case 'list':
      return { ops: ['eq', 'neq', 'in', 'nin', 'exists'], scalar: oneOf(definition.options) };
  }
}

/** The rule of a condition's `field`; INVALID_REQUEST naming `path` for an unknown field or an undefined attribute. */
export function fieldRuleOf(field: unknown, definitions: readonly AttributeDefinition[], path: string): FieldRule {
  if (typeof field !== 'string') throw invalidRequest(path, 'must be a field name string');
  if (field.startsWith(ATTRIBUTE_FIELD_PREFIX)) {
    const key = field.slice(ATTRIBUTE_FIELD_PREFIX.length);
    const definition = definitions.find((one) => one.key === key);
    if (definition === undefined) throw invalidRequest(path, `no contact attribute is defined with the key ${JSON.stringify(key)}`);
    return { field: `attributes.${key}`, ...attributeRule(definition) };
  }
  if (!(CONTACT_FIELDS as readonly string[]).includes(field)) {
    throw invalidRequest(path, `unknown field ${JSON.stringify(field)} (fields: ${CONTACT_FIELDS.join(', ')}, attributes.<key>)`);
  }
  const contactField = field as ContactField;
  return { field: contactField, ...CONTACT_FIELD_RULES[contactField] };
}
