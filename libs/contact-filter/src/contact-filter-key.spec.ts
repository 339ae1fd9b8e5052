import { attributeKeysOf, contactFilterKey } from './contact-filter-key';
import { TAG_A, TAG_B, TEST_DEFINITIONS } from './filter-definitions.fixture';
import { parseContactFilter } from './parse-contact-filter';

const keyOf = (input: unknown) => contactFilterKey(parseContactFilter(input, TEST_DEFINITIONS));

describe('contactFilterKey', () => {
  const filter = {
    and: [
      { field: 'attributes.plan', op: 'in', value: ['gold', 'silver'] },
      { or: [{ field: 'tag', op: 'eq', value: TAG_A }, { field: 'created_at', op: 'gte', value: '2025-01-31T18:00:00Z' }] },
    ],
  };

  it('is a string that does not depend on the key order of the input', () => {
    const reordered = {
      and: [
        { value: ['gold', 'silver'], op: 'in', field: 'attributes.plan' },
        { or: [{ op: 'eq', value: TAG_A, field: 'tag' }, { value: '2025-01-31T18:00:00Z', field: 'created_at', op: 'gte' }] },
      ],
    };
    expect(typeof keyOf(filter)).toBe('string');
    expect(keyOf(reordered)).toBe(keyOf(filter));
  });

  it('is the same for values written differently that are stored the same', () => {
    expect(keyOf({ and: [{ field: 'first_name', op: 'eq', value: ' ÁLVARO' }] })).toBe(keyOf({ and: [{ field: 'first_name', op: 'eq', value: 'alvaro' }] }));
    expect(keyOf({ and: [{ field: 'tag', op: 'eq', value: TAG_A.toUpperCase() }] })).toBe(keyOf({ and: [{ field: 'tag', op: 'eq', value: TAG_A }] }));
    expect(keyOf({ and: [{ field: 'phone', op: 'eq', value: '+52 (55) 1234' }] })).toBe(keyOf({ and: [{ field: 'phone', op: 'eq', value: '52551234' }] }));
    expect(keyOf({ and: [{ field: 'created_at', op: 'gt', value: '2025-01-31T12:00:00-06:00' }] })).toBe(
      keyOf({ and: [{ field: 'created_at', op: 'gt', value: '2025-01-31T18:00:00.000Z' }] }),
    );
  });

  it('is the same whatever the order of a group’s members or of in values, and with repeats', () => {
    const a = { field: 'tag', op: 'in', value: [TAG_A, TAG_B] };
    const b = { field: 'attributes.score', op: 'gt', value: 3 };
    expect(keyOf({ or: [a, b] })).toBe(keyOf({ or: [b, { ...a, value: [TAG_B, TAG_A, TAG_B] }] }));
    expect(keyOf({ and: [a, a] })).toBe(keyOf({ and: [a] }));
  });

  it.each([
    ['another combinator', { or: [{ field: 'tag', op: 'eq', value: TAG_A }] }, { and: [{ field: 'tag', op: 'eq', value: TAG_A }] }],
    ['another op', { and: [{ field: 'tag', op: 'eq', value: TAG_A }] }, { and: [{ field: 'tag', op: 'neq', value: TAG_A }] }],
    ['another field', { and: [{ field: 'first_name', op: 'eq', value: 'ana' }] }, { and: [{ field: 'last_name', op: 'eq', value: 'ana' }] }],
    ['another value', { and: [{ field: 'attributes.score', op: 'eq', value: 1 }] }, { and: [{ field: 'attributes.score', op: 'eq', value: 2 }] }],
    ['a case-sensitive value', { and: [{ field: 'external_id', op: 'eq', value: 'A' }] }, { and: [{ field: 'external_id', op: 'eq', value: 'a' }] }],
    ['a number and its text', { and: [{ field: 'attributes.score', op: 'eq', value: 1 }] }, { and: [{ field: 'attributes.nickname', op: 'eq', value: '1' }] }],
    ['nesting', { and: [{ field: 'tag', op: 'eq', value: TAG_A }] }, { and: [{ and: [{ field: 'tag', op: 'eq', value: TAG_A }] }] }],
  ])('differs for %s', (_case, left, right) => {
    expect(keyOf(left)).not.toBe(keyOf(right));
  });

  it('differs for a string value and a value that only looks like its JSON', () => {
    expect(keyOf({ and: [{ field: 'attributes.nickname', op: 'eq', value: '["x"]' }] })).not.toBe(keyOf({ and: [{ field: 'attributes.nickname', op: 'in', value: ['x'] }] }));
  });
});

describe('attributeKeysOf', () => {
  it('lists each attribute key a filter mentions once, sorted, nested groups included', () => {
    const filter = parseContactFilter(
      {
        and: [
          { field: 'attributes.plan', op: 'eq', value: 'gold' },
          { field: 'tag', op: 'exists', value: true },
          { or: [{ field: 'attributes.score', op: 'gt', value: 1 }, { field: 'attributes.plan', op: 'exists', value: false }] },
          { field: 'attributes.birthday', op: 'lt', value: '2000-01-01' },
        ],
      },
      TEST_DEFINITIONS,
    );
    expect(attributeKeysOf(filter)).toEqual(['birthday', 'plan', 'score']);
  });

  it('is empty for a filter without attributes', () => {
    expect(attributeKeysOf(parseContactFilter({ and: [{ field: 'email', op: 'exists', value: true }] }, TEST_DEFINITIONS))).toEqual([]);
  });
});
