import { randomUUID } from 'node:crypto';
import { type TestBusiness, contactSeed, createTestBusiness } from '@cmsg/testing';

describe('cross-business isolation', () => {
  let mine: TestBusiness;
  let theirs: TestBusiness;
  const victim = { conversation: randomUUID(), phone: '+5215511112222', chat_user_id: `MX.${randomUUID()}`, username: `victim_${randomUUID().slice(0, 8)}` };

  beforeAll(async () => {
    theirs = await createTestBusiness((seed) => {
      contactSeed(seed, { phone: victim.phone, chat_user_id: victim.chat_user_id, chat_username: victim.username, conversation: { uuid: victim.conversation } });
    });
    mine = await createTestBusiness();
  });

  it.each<[string, Record<string, string>]>([
    ['uuid', { uuid: victim.conversation }],
    ['chat_user_id', { chat_user_id: victim.chat_user_id }],
    ['username', { username: victim.username }],
    ['phone', { phone: victim.phone }],
  ])('never reaches another business conversation by %s', async (member, conversation) => {
    const attempts: [string, unknown][] = [
      ['/conversation/notes', { conversation, note: 'should not land' }],
      ['/conversation/pending', { conversation }],
      ['/conversation/resolve', { conversation }],
    ];
    // The status endpoint does not take a username (SPEC 4.5).
    if (member !== 'username') attempts.push(['/conversation/status', { conversation }]);
    for (const [path, body] of attempts) {
      const response = await mine.api.post(path, body);
      expect({ path, status: response.status, code: response.body.code }).toEqual({ path, status: 404, code: 'CONVERSATION_NOT_FOUND' });
    }
  });

  it('never shows another business conversation timeline', async () => {
    const response = await mine.api.get('/conversation/timeline', { conversation_uuid: victim.conversation });
    expect([response.status, response.body.code]).toEqual([404, 'CONVERSATION_NOT_FOUND']);
  });

  it('answers 403 when a token is used on the other business slug', async () => {
    const response = await mine.api.withSlug(theirs.slug).post('/conversation/status', { conversation: { uuid: victim.conversation } });
    expect([response.status, response.body.code]).toEqual([403, 'TOKEN_BUSINESS_MISMATCH']);
  });

  it('lists only its own conversations, contacts and channels', async () => {
    expect((await mine.api.get('/conversations')).body.items).toEqual([]);
    expect((await mine.api.get('/contacts')).body.items).toEqual([]);
    const channels = await mine.api.get('/channels');
    expect(channels.body.items.map((channel: { public_key: string }) => channel.public_key)).toEqual([mine.channelKey]);
  });
});
