import { CatalogError } from '@cmsg/errors';
import { type ResolvedTagRef, type StoredTag, planTagChange } from './tag-change-plan';

const tag = (id: string, fields: Partial<StoredTag> = {}): StoredTag => ({ _id: id, name: `tag ${id}`, color: '#000', is_default: false, ...fields });
const ok = (stored: StoredTag): ResolvedTagRef => ({ requested: { uuid: stored._id }, tag: stored });

describe('planTagChange', () => {
  it('assigns tags that are not on the conversation, each once', () => {
    const plan = planTagChange('assign', 'conflict', ['a'], [ok(tag('b')), ok(tag('c')), ok(tag('b'))]);
    expect(plan.toApply).toEqual(['b', 'c']);
    expect(plan.outcomes.map((outcome) => outcome.status)).toEqual(['assigned', 'assigned', 'assigned']);
  });

  it.each([
    ['conflict', 'failed', 'TAG_ALREADY_ASSIGNED'],
    ['noop', 'noop', undefined],
  ] as const)('an assign of a tag already there under %s is %s', (policy, status, code) => {
    const plan = planTagChange('assign', policy, ['a'], [ok(tag('a'))]);
    expect(plan.toApply).toEqual([]);
    expect(plan.outcomes[0]).toMatchObject({ status, error: code ? { code } : undefined });
  });

  it.each([
    ['conflict', 'failed', 'TAG_NOT_ASSIGNED'],
    ['noop', 'noop', undefined],
  ] as const)('a remove of a tag not there under %s is %s', (policy, status, code) => {
    const plan = planTagChange('remove', policy, ['a'], [ok(tag('b'))]);
    expect(plan.toApply).toEqual([]);
    expect(plan.outcomes[0]).toMatchObject({ status, error: code ? { code } : undefined });
  });

  it('removes tags that are on the conversation', () => {
    const plan = planTagChange('remove', 'conflict', ['a', 'b'], [ok(tag('b'))]);
    expect(plan).toMatchObject({ toApply: ['b'], outcomes: [{ status: 'removed', error: undefined }] });
  });

  it.each([
    ['assign', 'CANNOT_ASSIGN_DEFAULT_TAG', []],
    ['remove', 'CANNOT_REMOVE_DEFAULT_TAG', ['d']],
  ] as const)('never %ss a default tag, whatever the policy', (direction, code, current) => {
    for (const policy of ['conflict', 'noop'] as const) {
      const plan = planTagChange(direction, policy, current, [ok(tag('d', { is_default: true }))]);
      expect(plan.toApply).toEqual([]);
      expect(plan.outcomes[0]).toMatchObject({ status: 'failed', error: { code } });
    }
  });

  it('reports resolution errors beside the successful tags, in request order', () => {
    const missing: ResolvedTagRef = { requested: { name: 'nope' }, error: new CatalogError('TAG_NOT_FOUND', 'No tag named nope') };
    const plan = planTagChange('assign', 'conflict', [], [missing, ok(tag('b'))]);
    expect(plan.toApply).toEqual(['b']);
    expect(plan.outcomes).toEqual([
      { requested: { name: 'nope' }, tag: undefined, status: 'failed', error: { code: 'TAG_NOT_FOUND', message: 'No tag named nope' } },
      { requested: { uuid: 'b' }, tag: tag('b'), status: 'assigned', error: undefined },
    ]);
  });
});
