import { randomBytes, randomUUID } from 'node:crypto';
import { type CmsgClient, signWebhook } from '@cmsg/client';
import { connect, everyConversationUuid, inboxStatusOrNull, noteWhenWindowClosed, receiveDelivery, resolveQuietly } from '@cmsg/client/examples';
import { EVENT_EXAMPLES } from '@cmsg/api-schemas';
import { type TestBusiness, contactSeed, createTestBusiness, integrationStack, minutesAgo, storedCollection } from '@cmsg/testing';

/** The code the client's README shows (libs/client/examples), run against the real stack. */
describe("the client README's examples", () => {
  let business: TestBusiness;
  let cmsg: CmsgClient;
  const conversations: string[] = [];
  let closedPhone: string;
  let openPhone: string;

  beforeAll(async () => {
    business = await createTestBusiness((seed) => {
      // 120 conversations: more than one page of 100.
      for (let index = 0; index < 120; index += 1) conversations.push(contactSeed(seed).conversation!.uuid!);
      const closed = contactSeed(seed, { conversation: { uuid: randomUUID(), messages: [{ uuid: randomUUID(), is_from_customer: true, body: 'old', created_at: minutesAgo(48 * 60) }] } });
      const open = contactSeed(seed, { conversation: { uuid: randomUUID(), messages: [{ uuid: randomUUID(), is_from_customer: true, body: 'new', created_at: minutesAgo(5) }] } });
      conversations.push(closed.conversation!.uuid!, open.conversation!.uuid!);
      closedPhone = closed.phone!;
      openPhone = open.phone!;
    });
    cmsg = connect(integrationStack().gatewayUrls[0]!, business.slug, business.token);
  });

  it('connect + list-every-conversation: pages through every conversation', async () => {
    expect((await everyConversationUuid(cmsg)).sort()).toEqual([...conversations].sort());
  });

  it('note-when-window-closed: notes only a conversation whose window is closed', async () => {
    expect(await noteWhenWindowClosed(cmsg, openPhone)).toBeNull();
    const noteUuid = await noteWhenWindowClosed(cmsg, closedPhone);
    expect(noteUuid).toEqual(expect.any(String));
    const stored = await storedCollection('timeline_events').findOne({ _id: noteUuid! });
    expect(stored).toMatchObject({ kind: 'note', body: 'Window closed: follow up with a template.' });
  });

  it('typed-errors: a missing conversation is null or its status and code', async () => {
    expect(await inboxStatusOrNull(cmsg, conversations[0]!)).toBe('resolved');
    expect(await inboxStatusOrNull(cmsg, randomUUID())).toBeNull();
    expect(await resolveQuietly(cmsg, conversations[1]!)).toBe('resolved');
    expect(await resolveQuietly(cmsg, randomUUID())).toBe('404 CONVERSATION_NOT_FOUND');
  });

  it('verify-webhook: reads a signed delivery and refuses a forged one', () => {
    const secret = `whsec_${randomBytes(24).toString('base64')}`;
    const body = Buffer.from(JSON.stringify(EVENT_EXAMPLES['message.received']));
    const headers = signWebhook(body, secret);
    expect(receiveDelivery(body, headers, secret)).toBe(`customer wrote in ${EVENT_EXAMPLES['message.received'].conversation!.uuid}: Hi! Is my order on its way?`);
    const pending = Buffer.from(JSON.stringify(EVENT_EXAMPLES['conversation.inbox_status_changed']));
    expect(receiveDelivery(pending, signWebhook(pending, secret), secret)).toBe(`conversation ${EVENT_EXAMPLES['conversation.inbox_status_changed'].conversation!.uuid} is now pending`);
    expect(() => receiveDelivery(body, signWebhook(body, `whsec_${randomBytes(24).toString('base64')}`), secret)).toThrow('No signature matches');
  });
});
