import { CatalogError } from '@cmsg/errors';
import { parseVariableTemplates } from './parse-variable-templates';
import { placeholderRoots, referencedRowColumns } from './placeholder-roots';
import { VariableTemplateError } from './variable-template-error';

const segmentsOf = (value: string) => parseVariableTemplates([{ index: 1, value }])[0].segments;

function refusalOf(value: string): { message: string; placeholder: string } {
  try {
    parseVariableTemplates([{ index: 1, value: 'fine' }, { index: 2, value }]);
  } catch (error) {
    if (!(error instanceof VariableTemplateError)) throw error;
    expect(error).toBeInstanceOf(CatalogError);
    expect(error).toMatchObject({ code: 'INVALID_REQUEST', httpStatus: 400, position: 1 });
    return { message: error.message, placeholder: error.placeholder };
  }
  throw new Error(`${value} was accepted`);
}

describe('parseVariableTemplates', () => {
  it('splits a value into text and placeholders, keeping each placeholder as written', () => {
    expect(segmentsOf('Hi {{contact.first_name|there}}, your code is {{row.code}}')).toEqual([
      { kind: 'text', text: 'Hi ' },
      { kind: 'placeholder', written: '{{contact.first_name|there}}', path: { root: 'contact', field: 'first_name' }, fallback: 'there' },
      { kind: 'text', text: ', your code is ' },
      { kind: 'placeholder', written: '{{row.code}}', path: { root: 'row', column: 'code' }, fallback: null },
    ]);
  });

  it('reads every kind of placeholder, with spaces around the path and the fallback ignored', () => {
    expect(segmentsOf('{{ contact.last_name }}{{contact.attributes.plan | free trial }}{{row.first name|dear customer}}')).toEqual([
      { kind: 'placeholder', written: '{{ contact.last_name }}', path: { root: 'contact', field: 'last_name' }, fallback: null },
      { kind: 'placeholder', written: '{{contact.attributes.plan | free trial }}', path: { root: 'contact', field: 'attributes', key: 'plan' }, fallback: 'free trial' },
      { kind: 'placeholder', written: '{{row.first name|dear customer}}', path: { root: 'row', column: 'first name' }, fallback: 'dear customer' },
    ]);
  });

  it('keeps literal text, single braces included', () => {
    expect(segmentsOf('{price} in {EUR}')).toEqual([{ kind: 'text', text: '{price} in {EUR}' }]);
    expect(segmentsOf('')).toEqual([]);
    expect(segmentsOf('{{row.a}}}')).toEqual([
      { kind: 'placeholder', written: '{{row.a}}', path: { root: 'row', column: 'a' }, fallback: null },
      { kind: 'text', text: '}' },
    ]);
  });

  it('keeps the index of each variable', () => {
    const parsed = parseVariableTemplates([
      { index: 2, value: 'b' },
      { index: 1, value: 'a' },
    ]);
    expect(parsed.map((variable) => variable.index)).toEqual([2, 1]);
  });

  it.each([
    ['Hi {{contact.first_name', '{{contact.first_name', '"{{" is not closed by "}}"'],
    ['{{contact.first_name {{row.a}}', '{{contact.first_name {{row.a}}', '"{{" is not closed by "}}"'],
    ['Hi contact.first_name}}', '}}', '"}}" without "{{"'],
    ['{{}}', '{{}}', 'the placeholder is empty'],
    ['{{ | x}}', '{{ | x}}', 'the placeholder is empty'],
    ['{{user.name}}', '{{user.name}}', 'unknown placeholder "user"'],
    ['{{Contact.first_name}}', '{{Contact.first_name}}', 'unknown placeholder "Contact"'],
    ['{{contact}}', '{{contact}}', 'unknown contact field ""'],
    ['{{contact.email}}', '{{contact.email}}', 'unknown contact field "email"'],
    ['{{contact.attributes.Plan}}', '{{contact.attributes.Plan}}', '"Plan" is not an attribute key'],
    ['{{contact.attributes.}}', '{{contact.attributes.}}', '"" is not an attribute key'],
    ['{{row.}}', '{{row.}}', 'row. needs a column name'],
    ['{{row}}', '{{row}}', 'row. needs a column name'],
    ['{{contact.first_name|}}', '{{contact.first_name|}}', 'the fallback after "|" is empty'],
    ['{{contact.first_name|a|b}}', '{{contact.first_name|a|b}}', 'a placeholder takes one fallback'],
    ['{{contact.first_name|a}b}}', '{{contact.first_name|a}b}}', 'a fallback cannot hold "}"'],
  ])('refuses %j, naming %j', (value, placeholder, problem) => {
    const refusal = refusalOf(value);
    expect(refusal.placeholder).toBe(placeholder);
    expect(refusal.message).toContain(`Invalid request: variables[1].value: ${problem}`);
    expect(refusal.message).toContain(placeholder);
  });

  it('names a long unclosed placeholder by its start only', () => {
    expect(refusalOf(`{{contact.first_name ${'x'.repeat(100)}`).placeholder).toHaveLength(43);
  });
});

describe('placeholderRoots and referencedRowColumns', () => {
  it('tell which roots and columns the placeholders read', () => {
    const parsed = parseVariableTemplates([
      { index: 1, value: '{{contact.first_name}} {{row.code}}' },
      { index: 2, value: '{{row.code|x}} {{row.city}} {{contact.attributes.plan}}' },
    ]);
    expect([...placeholderRoots(parsed)].sort()).toEqual(['contact', 'row']);
    expect(referencedRowColumns(parsed)).toEqual(['code', 'city']);
    expect(placeholderRoots(parseVariableTemplates([{ index: 1, value: 'no placeholders' }])).size).toBe(0);
  });
});
