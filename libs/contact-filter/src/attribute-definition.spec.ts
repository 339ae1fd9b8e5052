import { CatalogError } from '@cmsg/errors';
import { ATTRIBUTE_KEY_PATTERN, validateAttributeDefinition, type AttributeDefinitionInput } from './attribute-definition';

function refusal(input: AttributeDefinitionInput): CatalogError {
  try {
    validateAttributeDefinition(input);
  } catch (error) {
    if (error instanceof CatalogError) return error;
    throw error;
  }
  throw new Error(`accepted ${JSON.stringify(input)}`);
}

describe('ATTRIBUTE_KEY_PATTERN', () => {
  it.each(['a', 'plan', 'plan_2', 'a'.repeat(40), 'x_'])('accepts %s', (key) => expect(ATTRIBUTE_KEY_PATTERN.test(key)).toBe(true));
  it.each(['', 'Plan', '2plan', '_plan', 'plan-b', 'plan.b', 'plán', 'a'.repeat(41), 'plan\n'])('refuses %j', (key) => expect(ATTRIBUTE_KEY_PATTERN.test(key)).toBe(false));
});

describe('validateAttributeDefinition', () => {
  it.each(['text', 'number', 'boolean', 'date'] as const)('accepts a %s attribute without options, giving it none', (type) => {
    expect(validateAttributeDefinition({ key: 'field_1', type })).toEqual({ key: 'field_1', type, options: [] });
  });

  it('accepts a list with 1 and with 50 distinct options, keeping their order', () => {
    expect(validateAttributeDefinition({ key: 'plan', type: 'list', options: ['gold'] })).toEqual({ key: 'plan', type: 'list', options: ['gold'] });
    const fifty = Array.from({ length: 50 }, (_, index) => `option ${index}`);
    expect(validateAttributeDefinition({ key: 'plan', type: 'list', options: fifty }).options).toEqual(fifty);
  });

  it('does not keep the caller’s array', () => {
    const options = ['gold', 'silver'];
    const definition = validateAttributeDefinition({ key: 'plan', type: 'list', options });
    options.push('bronze');
    expect(definition.options).toEqual(['gold', 'silver']);
  });

  it.each<[string, AttributeDefinitionInput, string]>([
    ['a bad key', { key: 'Plan', type: 'text' }, 'Invalid request: key: "Plan" must match ^[a-z][a-z0-9_]{0,39}$.'],
    ['a key of 41 characters', { key: 'a'.repeat(41), type: 'text' }, `Invalid request: key: "${'a'.repeat(41)}" must match ^[a-z][a-z0-9_]{0,39}$.`],
    ['an unknown type', { key: 'plan', type: 'enum' as 'list' }, 'Invalid request: type: attribute plan: type must be one of text, number, boolean, date, list.'],
    ['options on a text', { key: 'plan', type: 'text', options: ['gold'] }, 'Invalid request: options: attribute plan: options apply to a list attribute only.'],
    ['empty options on a number', { key: 'plan', type: 'number', options: [] }, 'Invalid request: options: attribute plan: options apply to a list attribute only.'],
    ['a list without options', { key: 'plan', type: 'list' }, 'Invalid request: options: attribute plan: a list needs 1 to 50 options.'],
    ['a list with no option', { key: 'plan', type: 'list', options: [] }, 'Invalid request: options: attribute plan: a list needs 1 to 50 options.'],
    [
      'a list with 51 options',
      { key: 'plan', type: 'list', options: Array.from({ length: 51 }, (_, index) => `o${index}`) },
      'Invalid request: options: attribute plan: a list needs 1 to 50 options.',
    ],
    ['an empty option', { key: 'plan', type: 'list', options: ['gold', ''] }, 'Invalid request: options[1]: attribute plan: each option must be a non-blank string of at most 1024 characters.'],
    ['a blank option', { key: 'plan', type: 'list', options: ['  '] }, 'Invalid request: options[0]: attribute plan: each option must be a non-blank string of at most 1024 characters.'],
    ['an option too long', { key: 'plan', type: 'list', options: ['x'.repeat(1025)] }, 'Invalid request: options[0]: attribute plan: each option must be a non-blank string of at most 1024 characters.'],
    ['a non-string option', { key: 'plan', type: 'list', options: [7 as unknown as string] }, 'Invalid request: options[0]: attribute plan: each option must be a non-blank string of at most 1024 characters.'],
    ['a repeated option', { key: 'plan', type: 'list', options: ['gold', 'silver', 'gold'] }, 'Invalid request: options[2]: attribute plan: option "gold" is listed twice.'],
  ])('refuses %s with INVALID_REQUEST naming it', (_case, input, message) => {
    const error = refusal(input);
    expect(error.code).toBe('INVALID_REQUEST');
    expect(error.httpStatus).toBe(400);
    expect(error.message).toBe(message);
  });
});
