import { businessScope } from '@cmsg/dal';
import { aiEmployeeRow } from '../testing/in-memory-ai-employees';
import { businessRow } from '../testing/in-memory-businesses';
import { InMemoryConversationReads } from '../testing/in-memory-conversation-reads';
import { mailboxRow } from '../testing/in-memory-mailboxes';
import { tagRow } from '../testing/in-memory-tags';
import type { ConversationReference } from '../conversation/conversation-resolver';
import { getConversationStatus } from './get-conversation-status.usecase';

describe('getConversationStatus', () => {
  const b1 = businessScope('b1');
  const REAL_NOW = Date.UTC(2026, 10, 29, 12);
  const hoursAgo = (hours: number) => new Date(REAL_NOW - hours * 3_600_000);
  let reads: InMemoryConversationReads;
  const status = (reference: ConversationReference) => getConversationStatus(reads.statusPorts(), b1, reference, REAL_NOW);

  beforeEach(() => {
    reads = new InMemoryConversationReads();
    reads.businesses.rows.push(businessRow({ _id: 'b1', tester_clock_offset_ms: 48 * 3_600_000 }));
    reads.lookup.channelRows.push({ _id: 'ch1', business_id: 'b1', public_key: 'main' });
    reads.tags.rows.push(tagRow({ _id: 't-vip', business_id: 'b1', name: 'VIP' }));
    reads.mailboxes.mailboxes.rows.push(mailboxRow({ _id: 'mb-sales', business_id: 'b1', category_id: 'cat', name: 'Sales' }));
    reads.aiEmployees.rows.push(aiEmployeeRow({ _id: 'ai-olga', business_id: 'b1', name: 'Olga' }));
    reads.lookup.addContactWithConversation(
      { _id: 'ana', business_id: 'b1', channel_id: 'ch1', phone: '+5215511111111' },
      {
        last_inbound_at: hoursAgo(1),
        last_message: { uuid: 'm1', body: 'hello', content_type: 'text', is_from_customer: true, created_at: hoursAgo(1) },
        tag_ids: ['t-vip'],
        mailbox_id: 'mb-sales',
        ai_employee_id: 'ai-olga',
        inbox_status: 'pending',
      },
    );
    reads.lookup.addContactWithConversation({ _id: 'tess', business_id: 'b1', channel_id: 'ch1', phone: '+5215522222222' }, { is_tester: true, last_inbound_at: hoursAgo(1) });
    reads.lookup.addContactWithConversation({ _id: 'twin-1', business_id: 'b1', channel_id: 'ch1', phone: '+5215533333333' });
    reads.lookup.addContactWithConversation({ _id: 'twin-2', business_id: 'b1', channel_id: 'ch2', phone: '+5215533333333' });
  });

  it('answers the snapshot: contact, window at the real now, owner, mailbox, tags, status, last message', async () => {
    expect(await status({ uuid: 'conv-ana' })).toEqual({
      conversation: { uuid: 'conv-ana', phone: '+5215511111111', chat_user_id: undefined },
      window: { status: 'open', expires_at: hoursAgo(-23).toISOString(), hours_remaining: 23 },
      assignment: { ai_employee: { uuid: 'ai-olga', name: 'Olga' } },
      mailbox: { uuid: 'mb-sales', name: 'Sales' },
      tags: [{ uuid: 't-vip', name: 'VIP', color: '' }],
      inbox_status: 'pending',
      last_message: { uuid: 'm1', is_from_customer: true, created_at: hoursAgo(1).toISOString() },
      is_tester: false,
      tester_virtual_now: undefined,
    });
  });

  it("sees a tester conversation at the business's virtual now", async () => {
    const snapshot = await status({ phone: '+5215522222222' });
    expect(snapshot).toMatchObject({ is_tester: true, window: { status: 'closed' }, tester_virtual_now: new Date(REAL_NOW + 48 * 3_600_000).toISOString() });
  });

  it('answers FETCH_FAILED for a tester conversation whose business no longer exists', async () => {
    reads.businesses.rows.length = 0;
    await expect(status({ uuid: 'conv-tess' })).rejects.toMatchObject({ code: 'FETCH_FAILED' });
    expect(await status({ uuid: 'conv-ana' })).toMatchObject({ is_tester: false });
  });

  it.each([
    [{ uuid: 'conv-nobody' }, 'CONVERSATION_NOT_FOUND'],
    [{ phone: '+5215599999999' }, 'CONVERSATION_NOT_FOUND'],
    [{ phone: '+5215533333333' }, 'PHONE_NUMBER_AMBIGUOUS'],
    [{ phone: '+5215533333333', channel: 'other' }, 'CHANNEL_NOT_FOUND'],
    [{}, 'INVALID_REQUEST'],
  ])('answers %j with %s', async (reference, code) => {
    await expect(status(reference)).rejects.toMatchObject({ code });
  });

  it('resolves an ambiguous phone within the channel named', async () => {
    expect((await status({ phone: '+5215533333333', channel: 'main' })).conversation).toMatchObject({ uuid: 'conv-twin-1' });
  });
});
