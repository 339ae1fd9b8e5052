import { CatalogError } from '@cmsg/errors';
import { FILTER_OPS, type FilterOp } from './contact-filter';
import { TAG_A, TAG_B, TEST_DEFINITIONS } from './filter-definitions.fixture';
import { parseContactFilter } from './parse-contact-filter';

function refusal(input: unknown): CatalogError {
  try {
    parseContactFilter(input, TEST_DEFINITIONS);
  } catch (error) {
    if (error instanceof CatalogError) return error;
    throw error;
  }
  throw new Error(`accepted ${JSON.stringify(input)}`);
}

function refusalMessage(input: unknown): string {
  const error = refusal(input);
  expect(error.code).toBe('INVALID_REQUEST');
  expect(error.httpStatus).toBe(400);
  return error.message;
}

const one = (condition: unknown) => ({ and: [condition] });
const parsedOne = (input: unknown) => parseContactFilter(one(input), TEST_DEFINITIONS).members[0];

/** CONTRACT 10.1 as decided, written out here independently of the implementation's tables. */
const ALLOWED_OPS: Record<string, FilterOp[]> = {
  first_name: ['eq', 'neq', 'in', 'nin', 'starts_with', 'exists'],
  last_name: ['eq', 'neq', 'in', 'nin', 'starts_with', 'exists'],
  email: ['eq', 'neq', 'in', 'nin', 'starts_with', 'exists'],
  phone: ['eq', 'neq', 'in', 'nin', 'starts_with', 'exists'],
  external_id: ['eq', 'neq', 'in', 'nin', 'starts_with', 'exists'],
  tag: ['eq', 'neq', 'in', 'nin', 'exists'],
  inbox_status: ['eq', 'neq', 'in', 'nin'],
  'consent.marketing': ['eq', 'neq', 'in', 'nin'],
  'consent.utility': ['eq', 'neq', 'in', 'nin'],
  created_at: ['eq', 'neq', 'gt', 'gte', 'lt', 'lte'],
  updated_at: ['eq', 'neq', 'gt', 'gte', 'lt', 'lte'],
  last_inbound_at: ['eq', 'neq', 'gt', 'gte', 'lt', 'lte', 'exists'],
  'attributes.nickname': ['eq', 'neq', 'in', 'nin', 'gt', 'gte', 'lt', 'lte', 'starts_with', 'exists'],
  'attributes.score': ['eq', 'neq', 'in', 'nin', 'gt', 'gte', 'lt', 'lte', 'exists'],
  'attributes.vip': ['eq', 'neq', 'exists'],
  'attributes.birthday': ['eq', 'neq', 'in', 'nin', 'gt', 'gte', 'lt', 'lte', 'exists'],
  'attributes.plan': ['eq', 'neq', 'in', 'nin', 'exists'],
};

/** A value each field accepts as input, and the stored form it is parsed to. */
const SAMPLE: Record<string, [unknown, unknown]> = {
  first_name: ['  Álvaro', 'alvaro'],
  last_name: ['PÉREZ', 'perez'],
  email: ['Ana@Example.com', 'ana@example.com'],
  phone: ['+52 1 (55) 1234-5678', '5215512345678'],
  external_id: ['CRM-Ab1', 'CRM-Ab1'],
  tag: [TAG_A, TAG_A],
  inbox_status: ['pending', 'pending'],
  'consent.marketing': ['opted_out', 'opted_out'],
  'consent.utility': ['unknown', 'unknown'],
  created_at: ['2025-01-31T12:00:00-06:00', new Date('2025-01-31T18:00:00Z')],
  updated_at: ['2025-01-31T18:00:00.250Z', new Date('2025-01-31T18:00:00.250Z')],
  last_inbound_at: ['2025-01-31T18:00:00Z', new Date('2025-01-31T18:00:00Z')],
  'attributes.nickname': ['Toño', 'Toño'],
  'attributes.score': [4.5, 4.5],
  'attributes.vip': [true, true],
  'attributes.birthday': ['1990-02-28', '1990-02-28'],
  'attributes.plan': ['gold', 'gold'],
};

const FIELD_OP_PAIRS = Object.entries(ALLOWED_OPS).flatMap(([field, allowed]) => FILTER_OPS.map((op) => [field, op, allowed.includes(op)] as const));

describe('parseContactFilter: ops per field', () => {
  it.each(FIELD_OP_PAIRS.filter(([, , allowed]) => allowed).map(([field, op]) => [field, op]))('%s takes %s', (field, op) => {
    const [input, stored] = SAMPLE[field];
    if (op === 'exists') {
      expect(parsedOne({ field, op, value: true })).toEqual({ field, op, value: true });
      expect(parsedOne({ field, op, value: false })).toEqual({ field, op, value: false });
    } else if (op === 'in' || op === 'nin') {
      expect(parsedOne({ field, op, value: [input] })).toEqual({ field, op, value: [stored] });
    } else {
      expect(parsedOne({ field, op, value: input })).toEqual({ field, op, value: stored });
    }
  });

  it.each(FIELD_OP_PAIRS.filter(([, , allowed]) => !allowed).map(([field, op]) => [field, op]))('%s refuses %s, naming the op and what the field takes', (field, op) => {
    const value = op === 'exists' ? true : op === 'in' || op === 'nin' ? [SAMPLE[field][0]] : SAMPLE[field][0];
    expect(refusalMessage({ and: [{ field: 'tag', op: 'exists', value: true }, { field, op, value }] })).toBe(
      `Invalid request: filter.and[1].op: ${op} does not apply to ${field} (it takes ${ALLOWED_OPS[field].join(', ')}).`,
    );
  });
});

describe('parseContactFilter: values', () => {
  it.each<[string, FilterOp, unknown, unknown]>([
    ['first_name', 'starts_with', ' ÁNA ', 'ana '],
    ['email', 'in', ['A@x.io', 'b@X.io'], ['a@x.io', 'b@x.io']],
    ['phone', 'starts_with', '+52 (55)', '5255'],
    ['phone', 'eq', '5', '5'],
    ['tag', 'nin', [TAG_A, TAG_B], [TAG_A, TAG_B]],
    ['tag', 'eq', TAG_A.toUpperCase(), TAG_A],
    ['inbox_status', 'in', ['pending', 'resolved'], ['pending', 'resolved']],
    ['consent.marketing', 'nin', ['unknown', 'opted_in'], ['unknown', 'opted_in']],
    ['attributes.nickname', 'eq', '', ''],
    ['attributes.nickname', 'gte', 'M', 'M'],
    ['attributes.score', 'lt', -0, 0],
    ['attributes.score', 'in', [1, 2.5, -3], [1, 2.5, -3]],
    ['attributes.birthday', 'gt', '2000-01-01', '2000-01-01'],
    ['attributes.plan', 'nin', ['gold', 'silver'], ['gold', 'silver']],
    ['attributes.vip', 'neq', false, false],
  ])('%s %s %j is stored-form %j', (field, op, value, stored) => {
    expect(parsedOne({ field, op, value })).toEqual({ field, op, value: stored });
  });

  it('keeps -0 out of a number attribute', () => {
    const parsed = parsedOne({ field: 'attributes.score', op: 'eq', value: -0 });
    expect(Object.is((parsed as { value: unknown }).value, 0)).toBe(true);
  });

  it.each<[string, FilterOp, unknown, string]>([
    ['first_name', 'eq', '', 'must be a non-blank string'],
    ['first_name', 'eq', '   ', 'must be a non-blank string'],
    ['last_name', 'starts_with', ' ', 'must be a non-blank string'],
    ['email', 'eq', 7, 'must be a non-blank string'],
    ['email', 'eq', null, 'must be a non-blank string'],
    ['phone', 'eq', 'no digits', 'must be a string holding at least one digit'],
    ['phone', 'eq', 5215512345678, 'must be a string holding at least one digit'],
    ['external_id', 'eq', '', 'must be a non-empty string'],
    ['external_id', 'eq', 12, 'must be a non-empty string'],
    ['tag', 'eq', 'vip', 'must be a tag uuid'],
    ['tag', 'eq', `${TAG_A}x`, 'must be a tag uuid'],
    ['inbox_status', 'eq', 'open', 'must be one of "pending", "resolved"'],
    ['inbox_status', 'eq', 'PENDING', 'must be one of "pending", "resolved"'],
    ['consent.marketing', 'eq', 'opted-out', 'must be one of "opted_in", "opted_out", "unknown"'],
    ['consent.utility', 'eq', true, 'must be one of "opted_in", "opted_out", "unknown"'],
    ['created_at', 'gt', '2025-01-31', 'must be an RFC 3339 date-time with its offset, e.g. 2025-01-31T18:00:00Z'],
    ['updated_at', 'lt', '2025-01-31T18:00:00', 'must be an RFC 3339 date-time with its offset, e.g. 2025-01-31T18:00:00Z'],
    ['last_inbound_at', 'gte', 1738346400000, 'must be an RFC 3339 date-time with its offset, e.g. 2025-01-31T18:00:00Z'],
    ['last_inbound_at', 'eq', '2025-02-30T00:00:00Z', 'must be an RFC 3339 date-time with its offset, e.g. 2025-01-31T18:00:00Z'],
    ['attributes.nickname', 'eq', 7, 'must be a string of at most 1024 characters (text attribute)'],
    ['attributes.nickname', 'eq', 'x'.repeat(1025), 'must be a string of at most 1024 characters (text attribute)'],
    ['attributes.nickname', 'starts_with', '', 'must be a non-empty prefix (use exists to ask for any value)'],
    ['attributes.score', 'eq', '4', 'must be a finite number (number attribute)'],
    ['attributes.score', 'gt', null, 'must be a finite number (number attribute)'],
    ['attributes.vip', 'eq', 'true', 'must be true or false (boolean attribute)'],
    ['attributes.birthday', 'eq', '1990-02-29', 'must be a real date written YYYY-MM-DD (date attribute)'],
    ['attributes.birthday', 'lt', '2025-01-31T00:00:00Z', 'must be a real date written YYYY-MM-DD (date attribute)'],
    ['attributes.plan', 'eq', 'bronze', 'must be one of "gold", "silver"'],
  ])('%s %s %j is refused: %s', (field, op, value, problem) => {
    expect(refusalMessage(one({ field, op, value }))).toBe(`Invalid request: filter.and[0].value: ${problem}.`);
  });

  it('names the offending element of an in list', () => {
    expect(refusalMessage(one({ field: 'attributes.plan', op: 'in', value: ['gold', 'silver', 'bronze'] }))).toBe(
      'Invalid request: filter.and[0].value[2]: must be one of "gold", "silver".',
    );
  });

  it.each(['in', 'nin'])('%s takes 1 to 100 values', (op) => {
    const hundred = Array.from({ length: 100 }, (_, index) => `id-${index}`);
    expect(parsedOne({ field: 'external_id', op, value: hundred })).toEqual({ field: 'external_id', op, value: hundred });
    const expected = `Invalid request: filter.and[0].value: must be an array of 1 to 100 values for ${op}.`;
    expect(refusalMessage(one({ field: 'external_id', op, value: [] }))).toBe(expected);
    expect(refusalMessage(one({ field: 'external_id', op, value: [...hundred, 'one more'] }))).toBe(expected);
    expect(refusalMessage(one({ field: 'external_id', op, value: 'id-1' }))).toBe(expected);
  });

  it.each([null, 'true', 1, []])('exists takes a boolean only, not %j', (value) => {
    expect(refusalMessage(one({ field: 'email', op: 'exists', value }))).toBe('Invalid request: filter.and[0].value: must be true or false for exists.');
  });

  it('requires a value', () => {
    expect(refusalMessage(one({ field: 'email', op: 'exists' }))).toBe('Invalid request: filter.and[0].value: is required.');
  });
});

describe('parseContactFilter: fields and ops by name', () => {
  it('refuses an unknown field, naming it', () => {
    expect(refusalMessage(one({ field: 'nickname', op: 'eq', value: 'x' }))).toBe(
      'Invalid request: filter.and[0].field: unknown field "nickname" (fields: first_name, last_name, phone, email, external_id, tag, inbox_status, consent.marketing, consent.utility, created_at, updated_at, last_inbound_at, attributes.<key>).',
    );
  });

  it.each(['attributes.tier', 'attributes.', 'attributes.Plan'])('refuses %s, an attribute with no definition, with INVALID_REQUEST naming the field', (field) => {
    expect(refusalMessage(one({ field, op: 'exists', value: true }))).toBe(
      `Invalid request: filter.and[0].field: no contact attribute is defined with the key ${JSON.stringify(field.slice('attributes.'.length))}.`,
    );
  });

  it.each([undefined, 7, null])('refuses a field that is not a string: %j', (field) => {
    expect(refusalMessage(one({ field, op: 'eq', value: 'x' }))).toBe('Invalid request: filter.and[0].field: must be a field name string.');
  });

  it.each([
    ['like', '"like"'],
    ['EQ', '"EQ"'],
    [undefined, 'null'],
    [3, '3'],
  ])('refuses the op %j, naming it', (op, shown) => {
    expect(refusalMessage(one({ field: 'email', op, value: 'x' }))).toBe(
      `Invalid request: filter.and[0].op: unknown op ${shown} (ops: eq, neq, in, nin, gt, gte, lt, lte, starts_with, exists).`,
    );
  });

  it('refuses a member a condition does not have', () => {
    expect(refusalMessage(one({ field: 'email', op: 'eq', value: 'a@b.c', negate: true }))).toBe(
      'Invalid request: filter.and[0].negate: is not a member of a condition (field, op, value).',
    );
  });

  it.each([null, 'email eq x', 7, ['email']])('refuses a member that is neither condition nor group: %j', (member) => {
    expect(refusalMessage(one(member))).toBe('Invalid request: filter.and[0]: must be a condition { field, op, value } or a group { and } / { or }.');
  });
});

describe('parseContactFilter: groups', () => {
  const condition = { field: 'tag', op: 'eq', value: TAG_A };

  it('reads a top group of conditions and nested groups', () => {
    expect(
      parseContactFilter(
        {
          or: [
            { field: 'first_name', op: 'eq', value: 'Ana' },
            { and: [condition, { field: 'attributes.plan', op: 'in', value: ['gold'] }] },
          ],
        },
        TEST_DEFINITIONS,
      ),
    ).toEqual({
      combinator: 'or',
      members: [
        { field: 'first_name', op: 'eq', value: 'ana' },
        {
          combinator: 'and',
          members: [
            { field: 'tag', op: 'eq', value: TAG_A },
            { field: 'attributes.plan', op: 'in', value: ['gold'] },
          ],
        },
      ],
    });
  });

  it.each([null, [], 'and', 7])('refuses a filter that is not an object: %j', (input) => {
    expect(refusalMessage(input)).toBe('Invalid request: filter: must be an object holding either "and" or "or".');
  });

  it.each([{}, { and: [condition], or: [condition] }, { field: 'tag', op: 'eq', value: TAG_A }])('refuses a top group without exactly one of and / or: %j', (input) => {
    expect(refusalMessage(input)).toBe('Invalid request: filter: must hold exactly one of "and" and "or".');
  });

  it('refuses a nested group with both keys, naming its path', () => {
    expect(refusalMessage({ and: [condition, { and: [condition], or: [condition] }] })).toBe('Invalid request: filter.and[1]: must hold exactly one of "and" and "or".');
  });

  it('refuses a member beside and / or', () => {
    expect(refusalMessage({ and: [condition], not: true })).toBe('Invalid request: filter.not: is not a member of a group (a group holds only "and" or "or").');
    expect(refusalMessage({ or: [{ and: [condition], field: 'tag' }] })).toBe(
      'Invalid request: filter.or[0].field: is not a member of a group (a group holds only "and" or "or").',
    );
  });

  it.each([[], 'x', null, { field: 'tag' }])('refuses members that are not a non-empty array: %j', (members) => {
    expect(refusalMessage({ or: members })).toBe('Invalid request: filter.or: must be an array of 1 to 20 conditions or groups.');
    expect(refusalMessage({ or: [condition, { and: members }] })).toBe('Invalid request: filter.or[1].and: must be an array of 1 to 20 conditions or groups.');
  });

  it('refuses a group inside a nested group (depth 3), naming it', () => {
    expect(refusalMessage({ and: [condition, { or: [condition, { and: [condition] }] }] })).toBe(
      'Invalid request: filter.and[1].or[1]: groups nest at most 2 levels: a group inside a nested group holds conditions only.',
    );
  });

  it('names the path of a deep problem: filter.and[2].or[0].op', () => {
    expect(refusalMessage({ and: [condition, condition, { or: [{ field: 'tag', op: 'starts_with', value: 'a' }] }] })).toBe(
      'Invalid request: filter.and[2].or[0].op: starts_with does not apply to tag (it takes eq, neq, in, nin, exists).',
    );
  });
});

describe('parseContactFilter: condition count', () => {
  const condition = (index: number) => ({ field: 'external_id', op: 'eq', value: `id-${index}` });
  const conditions = (count: number, from = 0) => Array.from({ length: count }, (_, index) => condition(from + index));

  it('takes 20 conditions in one group', () => {
    expect(parseContactFilter({ and: conditions(20) }, TEST_DEFINITIONS).members).toHaveLength(20);
  });

  it('takes 20 conditions across nested groups', () => {
    const filter = parseContactFilter({ or: [{ and: conditions(10) }, { and: conditions(9, 10) }, condition(19)] }, TEST_DEFINITIONS);
    expect(filter.members).toHaveLength(3);
  });

  it('refuses 21 members in one group', () => {
    expect(refusalMessage({ and: conditions(21) })).toBe('Invalid request: filter.and: must be an array of 1 to 20 conditions or groups.');
  });

  it('refuses a 21st condition across groups, naming it', () => {
    expect(refusalMessage({ or: [{ and: conditions(10) }, { and: conditions(10, 10) }, condition(20)] })).toBe(
      'Invalid request: filter.or[2]: a filter holds at most 20 conditions in all.',
    );
    expect(refusalMessage({ or: [{ and: conditions(15) }, { and: conditions(6, 15) }] })).toBe('Invalid request: filter.or[1].and[5]: a filter holds at most 20 conditions in all.');
  });
});
