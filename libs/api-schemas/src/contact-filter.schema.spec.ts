import { OpenApiGeneratorV31, OpenAPIRegistry } from '@asteasolutions/zod-to-openapi';
import { ContactFilterSchema } from './contact-filter.schema';

const TAG = '3f2b8c1e-6a4d-4e0b-9c7a-1d2e3f4a5b6c';
const condition = { field: 'tag', op: 'eq', value: TAG };

describe('ContactFilterSchema', () => {
  it('accepts the documented example', () => {
    const example = { and: [{ field: 'attributes.plan', op: 'eq', value: 'gold' }, condition] };
    expect(ContactFilterSchema.parse(example)).toEqual(example);
  });

  it('accepts a nested group, and values of any JSON type', () => {
    const filter = {
      or: [
        { field: 'attributes.score', op: 'gte', value: 3 },
        { and: [condition, { field: 'attributes.vip', op: 'exists', value: false }, { field: 'email', op: 'in', value: ['a@b.io'] }] },
      ],
    };
    expect(ContactFilterSchema.parse(filter)).toEqual(filter);
  });

  it.each([
    ['a group with both keys', { and: [condition], or: [condition] }],
    ['a nested group with both keys', { and: [{ and: [condition], or: [condition] }] }],
    ['depth 3', { and: [{ or: [{ and: [condition] }] }] }],
    ['an empty group', { and: [] }],
    ['21 members', { and: Array.from({ length: 21 }, () => condition) }],
    ['no group', condition],
    ['an unknown op', { and: [{ ...condition, op: 'like' }] }],
    ['a misspelt member', { and: [{ ...condition, negate: true }] }],
    ['an empty field', { and: [{ ...condition, field: '' }] }],
    ['a condition without value', { and: [{ field: 'email', op: 'exists' }] }],
  ])('rejects %s', (_case, input) => {
    expect(ContactFilterSchema.safeParse(input).success).toBe(false);
  });

  it('documents a named component with its example and a required value', () => {
    const registry = new OpenAPIRegistry();
    registry.register('ContactFilter', ContactFilterSchema);
    const { components } = new OpenApiGeneratorV31(registry.definitions).generateComponents();
    const schemas = components?.schemas as Record<string, { example?: unknown; required?: string[] }>;
    expect(schemas['ContactFilter'].example).toEqual({ and: [{ field: 'attributes.plan', op: 'eq', value: 'gold' }, condition] });
    expect(schemas['ContactFilterCondition'].required).toEqual(['field', 'op', 'value']);
    expect(Object.keys(schemas)).toEqual(expect.arrayContaining(['ContactFilterOp', 'ContactFilterNestedAnd', 'ContactFilterNestedOr']));
  });
});
