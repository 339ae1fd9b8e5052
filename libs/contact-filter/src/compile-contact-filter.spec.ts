import { compileContactFilter } from './compile-contact-filter';
import { TAG_A, TAG_B, TEST_DEFINITIONS } from './filter-definitions.fixture';
import { parseContactFilter } from './parse-contact-filter';

const compiledOne = (field: string, op: string, value: unknown) => {
  const compiled = compileContactFilter(parseContactFilter({ and: [{ field, op, value }] }, TEST_DEFINITIONS));
  return (compiled['$and'] as unknown[])[0];
};

const at = new Date('2025-01-31T18:00:00Z');
const instant = '2025-01-31T12:00:00-06:00';

describe('compileContactFilter: one condition per field and op', () => {
  it.each<[string, string, unknown, unknown]>([
    // Names and email: the folded key, for every op.
    ['first_name', 'eq', 'ÁLVARO', { first_name_key: 'alvaro' }],
    ['first_name', 'neq', 'Álvaro', { first_name_key: { $ne: 'alvaro' } }],
    ['first_name', 'in', ['Ana', 'LUIS'], { first_name_key: { $in: ['ana', 'luis'] } }],
    ['first_name', 'nin', ['Ana'], { first_name_key: { $nin: ['ana'] } }],
    ['first_name', 'starts_with', 'Ál', { first_name_key: { $regex: '^al' } }],
    ['first_name', 'exists', true, { first_name_key: { $ne: null } }],
    ['first_name', 'exists', false, { first_name_key: null }],
    ['last_name', 'eq', 'Pérez', { last_name_key: 'perez' }],
    ['last_name', 'starts_with', 'de la ', { last_name_key: { $regex: '^de la ' } }],
    ['last_name', 'exists', false, { last_name_key: null }],
    ['email', 'eq', 'Ana@Example.COM', { email_key: 'ana@example.com' }],
    ['email', 'starts_with', 'ana.p+x@', { email_key: { $regex: '^ana\\.p\\+x@' } }],
    ['email', 'nin', ['a@b.io'], { email_key: { $nin: ['a@b.io'] } }],
    ['email', 'exists', true, { email_key: { $ne: null } }],
    // Phone: digits.
    ['phone', 'eq', '+52 1 (55) 1234-5678', { phone_key: '5215512345678' }],
    ['phone', 'neq', '+1 415 555 0100', { phone_key: { $ne: '14155550100' } }],
    ['phone', 'in', ['+52 55', '1-415'], { phone_key: { $in: ['5255', '1415'] } }],
    ['phone', 'nin', ['+52 55'], { phone_key: { $nin: ['5255'] } }],
    ['phone', 'starts_with', '+52 (55)', { phone_key: { $regex: '^5255' } }],
    ['phone', 'exists', false, { phone_key: null }],
    // External id: exact, case-sensitive; metacharacters escaped in a prefix.
    ['external_id', 'eq', 'CRM-Ab1', { external_id: 'CRM-Ab1' }],
    ['external_id', 'neq', 'CRM-Ab1', { external_id: { $ne: 'CRM-Ab1' } }],
    ['external_id', 'in', ['a', 'B'], { external_id: { $in: ['a', 'B'] } }],
    ['external_id', 'nin', ['a'], { external_id: { $nin: ['a'] } }],
    ['external_id', 'starts_with', 'a.b*c?(d)[e]{f}|g^h$i\\j', { external_id: { $regex: '^a\\.b\\*c\\?\\(d\\)\\[e\\]\\{f\\}\\|g\\^h\\$i\\\\j' } }],
    ['external_id', 'exists', true, { external_id: { $ne: null } }],
    // Tag: membership in tag_ids.
    ['tag', 'eq', TAG_A, { tag_ids: TAG_A }],
    ['tag', 'neq', TAG_A, { tag_ids: { $ne: TAG_A } }],
    ['tag', 'in', [TAG_A, TAG_B], { tag_ids: { $in: [TAG_A, TAG_B] } }],
    ['tag', 'nin', [TAG_A, TAG_B], { tag_ids: { $nin: [TAG_A, TAG_B] } }],
    ['tag', 'exists', true, { 'tag_ids.0': { $exists: true } }],
    ['tag', 'exists', false, { 'tag_ids.0': { $exists: false } }],
    // Inbox status.
    ['inbox_status', 'eq', 'pending', { inbox_status: 'pending' }],
    ['inbox_status', 'neq', 'resolved', { inbox_status: { $ne: 'resolved' } }],
    ['inbox_status', 'in', ['pending', 'resolved'], { inbox_status: { $in: ['pending', 'resolved'] } }],
    ['inbox_status', 'nin', ['pending'], { inbox_status: { $nin: ['pending'] } }],
    // Consent: a missing status is unknown.
    ['consent.marketing', 'eq', 'opted_out', { 'consent.marketing.status': 'opted_out' }],
    ['consent.marketing', 'eq', 'unknown', { 'consent.marketing.status': { $in: ['unknown', null] } }],
    ['consent.marketing', 'neq', 'opted_in', { 'consent.marketing.status': { $ne: 'opted_in' } }],
    ['consent.marketing', 'neq', 'unknown', { 'consent.marketing.status': { $nin: ['unknown', null] } }],
    ['consent.utility', 'in', ['opted_in', 'opted_out'], { 'consent.utility.status': { $in: ['opted_in', 'opted_out'] } }],
    ['consent.utility', 'in', ['unknown', 'opted_in'], { 'consent.utility.status': { $in: ['unknown', 'opted_in', null] } }],
    ['consent.utility', 'nin', ['opted_out'], { 'consent.utility.status': { $nin: ['opted_out'] } }],
    ['consent.utility', 'nin', ['unknown'], { 'consent.utility.status': { $nin: ['unknown', null] } }],
    // Instants: Dates.
    ['created_at', 'eq', instant, { created_at: at }],
    ['created_at', 'neq', instant, { created_at: { $ne: at } }],
    ['created_at', 'gt', instant, { created_at: { $gt: at } }],
    ['created_at', 'gte', instant, { created_at: { $gte: at } }],
    ['updated_at', 'lt', instant, { updated_at: { $lt: at } }],
    ['updated_at', 'lte', instant, { updated_at: { $lte: at } }],
    ['last_inbound_at', 'gte', instant, { last_inbound_at: { $gte: at } }],
    ['last_inbound_at', 'exists', true, { last_inbound_at: { $ne: null } }],
    ['last_inbound_at', 'exists', false, { last_inbound_at: null }],
    // Attributes: $elemMatch on {k, v}; negations as $nor of the positive match.
    ['attributes.nickname', 'eq', 'Toño', { attributes: { $elemMatch: { k: 'nickname', v: 'Toño' } } }],
    ['attributes.nickname', 'neq', 'Toño', { $nor: [{ attributes: { $elemMatch: { k: 'nickname', v: 'Toño' } } }] }],
    ['attributes.nickname', 'in', ['a', 'b'], { attributes: { $elemMatch: { k: 'nickname', v: { $in: ['a', 'b'] } } } }],
    ['attributes.nickname', 'nin', ['a', 'b'], { $nor: [{ attributes: { $elemMatch: { k: 'nickname', v: { $in: ['a', 'b'] } } } }] }],
    ['attributes.nickname', 'starts_with', 'To.', { attributes: { $elemMatch: { k: 'nickname', v: { $regex: '^To\\.' } } } }],
    ['attributes.nickname', 'gt', 'M', { attributes: { $elemMatch: { k: 'nickname', v: { $gt: 'M' } } } }],
    ['attributes.nickname', 'exists', true, { 'attributes.k': 'nickname' }],
    ['attributes.nickname', 'exists', false, { 'attributes.k': { $ne: 'nickname' } }],
    ['attributes.score', 'eq', 3, { attributes: { $elemMatch: { k: 'score', v: 3 } } }],
    ['attributes.score', 'gte', 2.5, { attributes: { $elemMatch: { k: 'score', v: { $gte: 2.5 } } } }],
    ['attributes.score', 'lt', 10, { attributes: { $elemMatch: { k: 'score', v: { $lt: 10 } } } }],
    ['attributes.score', 'lte', 10, { attributes: { $elemMatch: { k: 'score', v: { $lte: 10 } } } }],
    ['attributes.score', 'in', [1, 2], { attributes: { $elemMatch: { k: 'score', v: { $in: [1, 2] } } } }],
    ['attributes.vip', 'eq', true, { attributes: { $elemMatch: { k: 'vip', v: true } } }],
    ['attributes.vip', 'neq', true, { $nor: [{ attributes: { $elemMatch: { k: 'vip', v: true } } }] }],
    ['attributes.vip', 'exists', false, { 'attributes.k': { $ne: 'vip' } }],
    ['attributes.birthday', 'eq', '1990-02-28', { attributes: { $elemMatch: { k: 'birthday', v: '1990-02-28' } } }],
    ['attributes.birthday', 'gt', '2000-01-01', { attributes: { $elemMatch: { k: 'birthday', v: { $gt: '2000-01-01' } } } }],
    ['attributes.birthday', 'nin', ['2000-01-01'], { $nor: [{ attributes: { $elemMatch: { k: 'birthday', v: { $in: ['2000-01-01'] } } } }] }],
    ['attributes.plan', 'eq', 'gold', { attributes: { $elemMatch: { k: 'plan', v: 'gold' } } }],
    ['attributes.plan', 'neq', 'gold', { $nor: [{ attributes: { $elemMatch: { k: 'plan', v: 'gold' } } }] }],
    ['attributes.plan', 'in', ['gold', 'silver'], { attributes: { $elemMatch: { k: 'plan', v: { $in: ['gold', 'silver'] } } } }],
    ['attributes.plan', 'exists', true, { 'attributes.k': 'plan' }],
  ])('%s %s %j -> %j', (field, op, value, expected) => {
    expect(compiledOne(field, op, value)).toEqual(expected);
  });

  it('escapes a prefix so that it matches only itself, served from an index as a literal prefix', () => {
    const { external_id } = compiledOne('external_id', 'starts_with', 'a.b*(c') as { external_id: { $regex: string } };
    const pattern = new RegExp(external_id.$regex);
    expect(pattern.test('a.b*(cdef')).toBe(true);
    expect(pattern.test('axb*(c')).toBe(false);
    expect(pattern.test('za.b*(c')).toBe(false);
  });
});

describe('compileContactFilter: groups', () => {
  it('compiles the top group and nested groups to $and / $or, in order, with nothing else at the top', () => {
    const filter = parseContactFilter(
      {
        or: [
          { field: 'attributes.plan', op: 'eq', value: 'gold' },
          {
            and: [
              { field: 'tag', op: 'eq', value: TAG_A },
              { field: 'consent.marketing', op: 'neq', value: 'opted_out' },
            ],
          },
          { or: [{ field: 'email', op: 'exists', value: false }] },
        ],
      },
      TEST_DEFINITIONS,
    );
    expect(compileContactFilter(filter)).toEqual({
      $or: [
        { attributes: { $elemMatch: { k: 'plan', v: 'gold' } } },
        { $and: [{ tag_ids: TAG_A }, { 'consent.marketing.status': { $ne: 'opted_out' } }] },
        { $or: [{ email_key: null }] },
      ],
    });
  });

  it('serialises to the same object through JSON except for its Dates', () => {
    const filter = parseContactFilter({ and: [{ field: 'created_at', op: 'gt', value: instant }] }, TEST_DEFINITIONS);
    expect(JSON.parse(JSON.stringify(compileContactFilter(filter)))).toEqual({ $and: [{ created_at: { $gt: at.toISOString() } }] });
  });
});
