import { CatalogError } from '@cmsg/errors';
import type { AttributeDefinition } from './attribute-definition';
import { validateAttributeValues } from './attribute-values';

const definitions: AttributeDefinition[] = [
  { key: 'nickname', type: 'text', options: [] },
  { key: 'score', type: 'number', options: [] },
  { key: 'vip', type: 'boolean', options: [] },
  { key: 'birthday', type: 'date', options: [] },
  { key: 'plan', type: 'list', options: ['gold', 'silver'] },
];

function refusal(values: Record<string, unknown>): CatalogError {
  try {
    validateAttributeValues(definitions, values);
  } catch (error) {
    if (error instanceof CatalogError) return error;
    throw error;
  }
  throw new Error(`accepted ${JSON.stringify(values)}`);
}

describe('validateAttributeValues', () => {
  it('sets a value of every type, in the order given', () => {
    expect(validateAttributeValues(definitions, { plan: 'gold', nickname: 'Toño', score: 4.5, vip: false, birthday: '1990-02-28' })).toEqual({
      set: [
        { k: 'plan', v: 'gold' },
        { k: 'nickname', v: 'Toño' },
        { k: 'score', v: 4.5 },
        { k: 'vip', v: false },
        { k: 'birthday', v: '1990-02-28' },
      ],
      unset: [],
    });
  });

  it.each<[string, unknown]>([
    ['nickname', ''],
    ['nickname', 'x'.repeat(1024)],
    ['nickname', '😀'.repeat(1024)],
    ['score', 0],
    ['score', -12],
    ['score', 1e300],
    ['vip', true],
    ['birthday', '2024-02-29'],
    ['plan', 'silver'],
  ])('accepts %s = %j', (key, value) => {
    expect(validateAttributeValues(definitions, { [key]: value }).set).toEqual([{ k: key, v: value }]);
  });

  it('stores -0 as 0', () => {
    expect(Object.is(validateAttributeValues(definitions, { score: -0 }).set[0].v, 0)).toBe(true);
  });

  it('removes a key given null (JSON Merge Patch), beside the keys it sets', () => {
    expect(validateAttributeValues(definitions, { plan: null, score: 3, vip: null })).toEqual({ set: [{ k: 'score', v: 3 }], unset: ['plan', 'vip'] });
  });

  it('answers nothing to do for an empty object', () => {
    expect(validateAttributeValues(definitions, {})).toEqual({ set: [], unset: [] });
  });

  it.each<[string, Record<string, unknown>]>([
    ['a value', { tier: 'gold' }],
    ['null', { tier: null }],
    ['a key that no definition could have', { 'Bad-Key': 1 }],
  ])('refuses %s for an undefined key with ATTRIBUTE_UNDEFINED (422) naming the key', (_case, values) => {
    const error = refusal(values);
    expect(error.code).toBe('ATTRIBUTE_UNDEFINED');
    expect(error.httpStatus).toBe(422);
    expect(error.message).toContain(JSON.stringify(Object.keys(values)[0]));
  });

  it('refuses an undefined key even beside valid ones', () => {
    expect(refusal({ plan: 'gold', tier: 'x' }).code).toBe('ATTRIBUTE_UNDEFINED');
  });

  it.each<[string, unknown, string]>([
    ['nickname', 7, 'must be a string (text attribute)'],
    ['nickname', 'x'.repeat(1025), 'must be at most 1024 characters'],
    ['nickname', ['a'], 'must be a string (text attribute)'],
    ['score', '7', 'must be a finite number (number attribute)'],
    ['score', Number.NaN, 'must be a finite number (number attribute)'],
    ['score', Number.POSITIVE_INFINITY, 'must be a finite number (number attribute)'],
    ['vip', 'true', 'must be true or false (boolean attribute)'],
    ['vip', 1, 'must be true or false (boolean attribute)'],
    ['birthday', '2025-02-29', 'must be a real date written YYYY-MM-DD (date attribute)'],
    ['birthday', '2025-01-31T00:00:00Z', 'must be a real date written YYYY-MM-DD (date attribute)'],
    ['birthday', 20250131, 'must be a real date written YYYY-MM-DD (date attribute)'],
    ['plan', 'bronze', 'must be one of "gold", "silver" (list attribute)'],
    ['plan', 'Gold', 'must be one of "gold", "silver" (list attribute)'],
    ['plan', ['gold'], 'must be one of "gold", "silver" (list attribute)'],
  ])('refuses %s = %j with INVALID_REQUEST naming the key', (key, value, problem) => {
    const error = refusal({ [key]: value });
    expect(error.code).toBe('INVALID_REQUEST');
    expect(error.httpStatus).toBe(400);
    expect(error.message).toBe(`Invalid request: attributes.${key}: ${problem}.`);
  });

  it.each([null, [], 'plan'])('refuses attributes that are not an object: %j', (values) => {
    expect(refusal(values as unknown as Record<string, unknown>).message).toBe('Invalid request: attributes: must be an object.');
  });
});
