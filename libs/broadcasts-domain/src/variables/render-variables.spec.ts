import { parseVariableTemplates } from './parse-variable-templates';
import { renderVariables, type RecipientValues } from './render-variables';

const ana: RecipientValues = {
  contact: { first_name: 'Ana', last_name: 'Silva', attributes: { plan: 'gold', visits: 3, vip: true, since: '2024-02-29', tags: ['a', 'b'] } },
};

const render = (value: string, values: RecipientValues = ana) => renderVariables(parseVariableTemplates([{ index: 1, value }]), values);
const rendered = (value: string, values: RecipientValues = ana) => {
  const result = render(value, values);
  return result.ok ? result.variables[0].value : `missing ${result.missing}`;
};

describe('renderVariables', () => {
  it('fills each variable with the contact and the row, keeping the index', () => {
    const parsed = parseVariableTemplates([
      { index: 1, value: 'Hi {{contact.first_name|there}}, your code is {{row.code}}' },
      { index: 2, value: '{{contact.last_name}}' },
    ]);
    expect(renderVariables(parsed, { ...ana, row: { code: 'X1' } })).toEqual({
      ok: true,
      variables: [
        { index: 1, value: 'Hi Ana, your code is X1' },
        { index: 2, value: 'Silva' },
      ],
    });
  });

  it('renders attribute values as text', () => {
    expect(rendered('{{contact.attributes.plan}}/{{contact.attributes.visits}}/{{contact.attributes.vip}}/{{contact.attributes.since}}')).toBe(
      'gold/3/true/2024-02-29',
    );
    expect(rendered('{{contact.attributes.tags}}')).toBe('a, b');
    expect(rendered('{{contact.attributes.off}}', { contact: { first_name: null, last_name: null, attributes: { off: false } } })).toBe('false');
    expect(rendered('{{contact.attributes.zero}}', { contact: { first_name: null, last_name: null, attributes: { zero: 0 } } })).toBe('0');
    const date = new Date('2025-06-01T00:00:00Z');
    expect(rendered('{{contact.attributes.d}}', { contact: { first_name: null, last_name: null, attributes: { d: date } } })).toBe('2025-06-01');
  });

  it('trims the value a placeholder reads', () => {
    expect(rendered('Hi {{contact.first_name}}!', { contact: { first_name: '  Ana ', last_name: null, attributes: {} } })).toBe('Hi Ana!');
  });

  it('uses the fallback when the value is absent, null, blank or an empty list', () => {
    const nobody: RecipientValues = { contact: { first_name: '   ', last_name: null, attributes: { tags: [], blank: ' ', nothing: null } }, row: { code: '' } };
    expect(rendered('{{contact.first_name|there}} {{contact.last_name|x}} {{contact.attributes.tags|none}}', nobody)).toBe('there x none');
    expect(rendered('{{contact.attributes.blank|b}}{{contact.attributes.nothing|n}}{{contact.attributes.unset|u}}{{row.code|c}}{{row.other|o}}', nobody)).toBe('bnuco');
  });

  it.each([
    ['{{contact.first_name}}', { contact: { first_name: null, last_name: 'S', attributes: {} } }],
    ['{{contact.first_name}}', { contact: { first_name: undefined, last_name: 'S', attributes: {} } }],
    ['{{contact.first_name}}', { contact: { first_name: ' \t', last_name: 'S', attributes: {} } }],
    ['{{contact.attributes.plan}}', { contact: { first_name: 'A', last_name: 'S', attributes: {} } }],
    ['{{contact.attributes.plan}}', { contact: { first_name: 'A', last_name: 'S', attributes: null } }],
    ['{{contact.attributes.tags}}', { contact: { first_name: 'A', last_name: 'S', attributes: { tags: [' ', ''] } } }],
    ['{{contact.attributes.obj}}', { contact: { first_name: 'A', last_name: 'S', attributes: { obj: { a: 1 } } } }],
    ['{{row.code}}', { contact: { first_name: 'A', last_name: 'S', attributes: {} }, row: { code: '  ' } }],
    ['{{row.code}}', { contact: { first_name: 'A', last_name: 'S', attributes: {} } }],
  ] as [string, RecipientValues][])('reports %s missing without a fallback', (placeholder, values) => {
    expect(render(`Hello ${placeholder}`, values)).toEqual({ ok: false, missing: placeholder });
  });

  it('reports the first missing placeholder as written, across variables', () => {
    const parsed = parseVariableTemplates([
      { index: 1, value: '{{contact.first_name}}' },
      { index: 2, value: '{{ row.code }} {{row.city}}' },
    ]);
    expect(renderVariables(parsed, { ...ana, row: {} })).toEqual({ ok: false, missing: '{{ row.code }}' });
  });

  it('reads only the row and attributes own keys', () => {
    expect(render('{{row.constructor}}', { ...ana, row: {} })).toEqual({ ok: false, missing: '{{row.constructor}}' });
    expect(render('{{contact.attributes.constructor}}')).toEqual({ ok: false, missing: '{{contact.attributes.constructor}}' });
  });

  it('renders a variable without placeholders as it is', () => {
    expect(rendered('Black Friday: 30% off {today}')).toBe('Black Friday: 30% off {today}');
  });
});
