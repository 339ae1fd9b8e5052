import { randomUUID } from 'node:crypto';
import { type TestBusiness, contactSeed, createTestBusiness } from '@cmsg/testing';
import { storedConversation } from './conversation-actions.fixtures';

describe('POST and DELETE /{slug}/conversation/tags (CONTRACT 5)', () => {
  let business: TestBusiness;
  let other: TestBusiness;
  const tags = {
    vip: { uuid: randomUUID(), name: 'VIP', color: '#ff0000' },
    lead: { uuid: randomUUID(), name: 'Lead', color: '#00ff00' },
    hot: { uuid: randomUUID(), name: 'Hot', color: '' },
    dupA: { uuid: randomUUID(), name: 'Dup', color: '#111111' },
    dupB: { uuid: randomUUID(), name: 'dup ', color: '#222222' },
    system: { uuid: randomUUID(), name: 'Unread', color: '#999999', is_default: true },
  };
  const foreignTag = { uuid: randomUUID(), name: 'Foreign', color: '#123456' };
  const conversations = { plain: randomUUID(), tagged: randomUUID(), mixed: randomUUID(), errors: randomUUID(), withSystem: randomUUID() };

  beforeAll(async () => {
    other = await createTestBusiness((seed) => {
      seed.tags = [foreignTag];
    });
    business = await createTestBusiness((seed) => {
      seed.tags = Object.values(tags);
      contactSeed(seed, { conversation: { uuid: conversations.plain } });
      contactSeed(seed, { conversation: { uuid: conversations.tagged, tags: [tags.vip.uuid, tags.lead.uuid] } });
      contactSeed(seed, { conversation: { uuid: conversations.mixed, tags: [tags.vip.uuid] } });
      contactSeed(seed, { conversation: { uuid: conversations.errors, tags: [tags.vip.uuid] } });
      contactSeed(seed, { conversation: { uuid: conversations.withSystem, tags: [tags.system.uuid] } });
    });
  });

  const assign = (conversation: string, refs: unknown[]) => business.api.post('/conversation/tags', { conversation: { uuid: conversation }, tags: refs });
  const remove = (conversation: string, refs: unknown[]) => business.api.delete('/conversation/tags', { conversation: { uuid: conversation }, tags: refs });
  const publicTag = (tag: { uuid: string; name: string; color: string }) => ({ uuid: tag.uuid, name: tag.name, color: tag.color });

  it('assigns tags by uuid and by name (case-insensitive), answering the current tags', async () => {
    const response = await assign(conversations.plain, [{ uuid: tags.vip.uuid }, { name: '  lead ' }]);
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ conversation: { uuid: conversations.plain }, tags: [publicTag(tags.vip), publicTag(tags.lead)] });
    expect((await storedConversation(conversations.plain))?.tag_ids).toEqual([tags.vip.uuid, tags.lead.uuid]);
  });

  it('answers 409 TAG_ALREADY_ASSIGNED for a tag already there and changes nothing', async () => {
    const response = await assign(conversations.tagged, [{ uuid: tags.vip.uuid }]);
    expect([response.status, response.body.code]).toEqual([409, 'TAG_ALREADY_ASSIGNED']);
    expect((await storedConversation(conversations.tagged))?.tag_ids).toEqual([tags.vip.uuid, tags.lead.uuid]);
  });

  it('removes tags, then answers 404 TAG_NOT_ASSIGNED for one that is not there', async () => {
    const removed = await remove(conversations.tagged, [{ name: 'vip' }]);
    expect(removed.status).toBe(200);
    expect(removed.body).toEqual({ conversation: { uuid: conversations.tagged }, tags: [publicTag(tags.lead)] });
    const again = await remove(conversations.tagged, [{ uuid: tags.vip.uuid }]);
    expect([again.status, again.body.code]).toEqual([404, 'TAG_NOT_ASSIGNED']);
    expect((await storedConversation(conversations.tagged))?.tag_ids).toEqual([tags.lead.uuid]);
  });

  it.each<[string, number, string, Record<string, string>]>([
    ['TAG_NOT_FOUND', 404, 'an unknown name', { name: 'no such tag' }],
    ['TAG_NOT_FOUND', 404, 'an unknown uuid', { uuid: randomUUID() }],
    ['TAG_NOT_FOUND', 404, 'a tag name of another business', { name: 'Foreign' }],
    ['TAG_AMBIGUOUS', 409, 'a name shared by two tags', { name: 'DUP' }],
    ['TAG_BUSINESS_MISMATCH', 400, 'a tag uuid of another business', { uuid: foreignTag.uuid }],
    ['CANNOT_ASSIGN_DEFAULT_TAG', 422, 'a system-managed tag', { name: 'unread' }],
  ])('assign answers %s (%i) for %s, as a plain error for a one-tag request', async (code, status, _case, ref) => {
    const response = await assign(conversations.errors, [ref]);
    expect(response.status).toBe(status);
    expect(response.body).toEqual({ code, message: expect.any(String) });
    expect((await storedConversation(conversations.errors))?.tag_ids).toEqual([tags.vip.uuid]);
  });

  it('remove answers CANNOT_REMOVE_DEFAULT_TAG (422) and keeps the system tag', async () => {
    const response = await remove(conversations.withSystem, [{ uuid: tags.system.uuid }]);
    expect([response.status, response.body.code]).toEqual([422, 'CANNOT_REMOVE_DEFAULT_TAG']);
    expect((await storedConversation(conversations.withSystem))?.tag_ids).toEqual([tags.system.uuid]);
  });

  it('answers 207 with per-tag results when some tags fail, applying the others', async () => {
    const response = await assign(conversations.mixed, [{ uuid: tags.hot.uuid }, { uuid: tags.vip.uuid }, { name: 'ghost' }]);
    expect(response.status).toBe(207);
    expect(response.body).toEqual({
      conversation: { uuid: conversations.mixed },
      tags: [publicTag(tags.vip), publicTag(tags.hot)],
      results: [
        { requested: { uuid: tags.hot.uuid }, tag: publicTag(tags.hot), status: 'assigned', error: null },
        { requested: { uuid: tags.vip.uuid }, tag: publicTag(tags.vip), status: 'failed', error: { code: 'TAG_ALREADY_ASSIGNED', message: expect.any(String) } },
        { requested: { name: 'ghost' }, tag: null, status: 'failed', error: { code: 'TAG_NOT_FOUND', message: expect.any(String) } },
      ],
    });
    const removal = await remove(conversations.mixed, [{ name: 'hot' }, { uuid: tags.lead.uuid }]);
    expect(removal.status).toBe(207);
    expect(removal.body.tags).toEqual([publicTag(tags.vip)]);
    expect(removal.body.results.map((result: { status: string; error: { code: string } | null }) => [result.status, result.error?.code ?? null])).toEqual([
      ['removed', null],
      ['failed', 'TAG_NOT_ASSIGNED'],
    ]);
  });

  // Every tag failed: 207 for different codes, the plain error for one code
  // (apps/gateway/src/mappers/conversation-action.mapper.spec.ts).

  it('rejects an empty tag list, a reference with neither uuid nor name, and an unknown conversation', async () => {
    for (const body of [{ conversation: { uuid: conversations.plain }, tags: [] }, { conversation: { uuid: conversations.plain }, tags: [{}] }]) {
      const response = await business.api.post('/conversation/tags', body);
      expect([response.status, response.body.code]).toEqual([400, 'INVALID_REQUEST']);
    }
    const missing = await assign(randomUUID(), [{ uuid: tags.vip.uuid }]);
    expect([missing.status, missing.body.code]).toEqual([404, 'CONVERSATION_NOT_FOUND']);
  });

  it("never touches another business's conversation or tags", async () => {
    const foreignConversation = randomUUID();
    await createTestBusiness((seed) => {
      contactSeed(seed, { conversation: { uuid: foreignConversation } });
    });
    const response = await assign(foreignConversation, [{ uuid: tags.vip.uuid }]);
    expect([response.status, response.body.code]).toEqual([404, 'CONVERSATION_NOT_FOUND']);
    const byName = await other.api.post('/conversation/tags', { conversation: { uuid: conversations.plain }, tags: [{ name: 'Foreign' }] });
    expect([byName.status, byName.body.code]).toEqual([404, 'CONVERSATION_NOT_FOUND']);
    expect((await storedConversation(foreignConversation))?.tag_ids).toEqual([]);
  });
});
