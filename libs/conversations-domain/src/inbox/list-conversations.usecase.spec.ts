import { businessScope } from '@cmsg/dal';
import { ListCursorCodec } from '../listing/list-cursor';
import type { PageRequest } from '../listing/list-page';
import { aiEmployeeRow } from '../testing/in-memory-ai-employees';
import { businessRow } from '../testing/in-memory-businesses';
import { InMemoryConversationReads } from '../testing/in-memory-conversation-reads';
import { mailboxRow } from '../testing/in-memory-mailboxes';
import { tagRow } from '../testing/in-memory-tags';
import type { ConversationListFilters } from './conversation-list-filters';
import { listConversations } from './list-conversations.usecase';

describe('listConversations', () => {
  const b1 = businessScope('b1');
  const REAL_NOW = Date.UTC(2026, 10, 29, 12);
  const hoursAgo = (hours: number) => new Date(REAL_NOW - hours * 3_600_000);
  const codec = new ListCursorCodec('a-test-secret-of-enough-length');
  let reads: InMemoryConversationReads;
  const list = (request: Partial<PageRequest & { filters: ConversationListFilters }> = {}) => listConversations(reads.listPorts(), b1, codec, { limit: 10, order: 'desc', ...request }, REAL_NOW);
  const uuids = async (request: Partial<PageRequest & { filters: ConversationListFilters }> = {}) => (await list(request)).items.map((item) => item.uuid);

  beforeEach(() => {
    reads = new InMemoryConversationReads();
    reads.businesses.rows.push(businessRow({ _id: 'b1', tester_clock_offset_ms: 48 * 3_600_000 }));
    reads.tags.rows.push(tagRow({ _id: 't-vip', business_id: 'b1', name: 'VIP', color: '#f00' }));
    reads.mailboxes.mailboxes.rows.push(mailboxRow({ _id: 'mb-sales', business_id: 'b1', category_id: 'cat', name: 'Sales' }));
    reads.aiEmployees.rows.push(aiEmployeeRow({ _id: 'ai-olga', business_id: 'b1', name: 'Olga' }));
    reads.lookup.addContactWithConversation(
      { _id: 'ana', business_id: 'b1', channel_id: 'ch1' },
      {
        sort_at: hoursAgo(1),
        last_inbound_at: hoursAgo(1),
        last_message: { uuid: 'm1', body: 'hello', content_type: 'text', is_from_customer: true, created_at: hoursAgo(1) },
        contact: { name: 'Ana', profile_name: null, phone: '+5215511111111', chat_user_id: null },
        unread_count: 2,
        tag_ids: ['t-vip', 't-deleted'],
        mailbox_id: 'mb-sales',
        ai_employee_id: 'ai-olga',
        inbox_status: 'pending',
      },
    );
    reads.lookup.addContactWithConversation({ _id: 'bea', business_id: 'b1', channel_id: 'ch1' }, { sort_at: hoursAgo(2), last_inbound_at: hoursAgo(30) });
    reads.lookup.addContactWithConversation({ _id: 'tess', business_id: 'b1', channel_id: 'ch1' }, { sort_at: hoursAgo(3), is_tester: true, last_inbound_at: hoursAgo(-20) });
    reads.lookup.addContactWithConversation({ _id: 'cy', business_id: 'b2', channel_id: 'ch9' }, { sort_at: hoursAgo(0) });
  });

  it("lists the business's conversations newest first, each with its contact, last message, window and the names it points to", async () => {
    const { items, has_more, next_cursor } = await list();
    expect(items.map((item) => item.uuid)).toEqual(['conv-ana', 'conv-bea', 'conv-tess']);
    expect({ has_more, next_cursor }).toEqual({ has_more: false, next_cursor: '' });
    expect(items[0]).toMatchObject({
      contact: { uuid: 'ana', name: 'Ana', phone: '+5215511111111' },
      last_message_at: hoursAgo(1).toISOString(),
      last_message_preview: { body: 'hello', content_type: 'text', is_from_customer: true },
      unread_count: 2,
      mailbox: { uuid: 'mb-sales', name: 'Sales' },
      ai_employee: { uuid: 'ai-olga', name: 'Olga' },
      tags: [{ uuid: 't-vip', name: 'VIP', color: '#f00' }],
      messaging_window_expires_at: hoursAgo(-23).toISOString(),
      inbox_status: 'pending',
    });
    expect(await uuids({ order: 'asc' })).toEqual(['conv-tess', 'conv-bea', 'conv-ana']);
  });

  it('pages with a cursor bound to the order and the filters', async () => {
    const first = await list({ limit: 2 });
    expect(first.items.map((item) => item.uuid)).toEqual(['conv-ana', 'conv-bea']);
    expect(first.has_more).toBe(true);
    expect(await uuids({ limit: 2, cursor: first.next_cursor })).toEqual(['conv-tess']);
    await expect(list({ limit: 2, cursor: first.next_cursor, order: 'asc' })).rejects.toMatchObject({ code: 'INVALID_CURSOR' });
    await expect(list({ limit: 2, cursor: first.next_cursor, filters: { tags: ['t-vip'] } })).rejects.toMatchObject({ code: 'INVALID_CURSOR' });
  });

  it('filters by status, tags, mailbox, AI employee and tester flag', async () => {
    expect(await uuids({ filters: { tags: [], inboxStatus: 'pending' } })).toEqual(['conv-ana']);
    expect(await uuids({ filters: { tags: ['t-vip'] } })).toEqual(['conv-ana']);
    expect(await uuids({ filters: { tags: [], mailbox: 'mb-sales' } })).toEqual(['conv-ana']);
    expect(await uuids({ filters: { tags: [], aiEmployee: 'none' } })).toEqual(['conv-bea', 'conv-tess']);
    expect(await uuids({ filters: { tags: [], isTester: true } })).toEqual(['conv-tess']);
  });

  it("filters by window at each conversation's own now: a tester conversation on the business's clock", async () => {
    expect(await uuids({ filters: { tags: [], window: 'open' } })).toEqual(['conv-ana']);
    expect(await uuids({ filters: { tags: [], window: 'closed' } })).toEqual(['conv-bea', 'conv-tess']);
    // Open on the real clock, closed on the tester clock two days ahead until that clock is set back.
    reads.businesses.rows[0]!.tester_clock_offset_ms = 0;
    expect(await uuids({ filters: { tags: [], window: 'open' } })).toEqual(['conv-ana', 'conv-tess']);
  });

  it('answers FETCH_FAILED for a window filter when the business no longer exists', async () => {
    reads.businesses.rows.length = 0;
    await expect(list({ filters: { tags: [], window: 'open' } })).rejects.toMatchObject({ code: 'FETCH_FAILED' });
    expect(await uuids()).toHaveLength(3);
  });
});
