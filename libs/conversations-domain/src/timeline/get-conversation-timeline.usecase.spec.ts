import { businessScope } from '@cmsg/dal';
import { ListCursorCodec } from '../listing/list-cursor';
import { InMemoryAiEmployees, aiEmployeeRow } from '../testing/in-memory-ai-employees';
import { InMemoryConversationLookup } from '../testing/in-memory-conversations';
import { InMemoryTimeline, messageRow, noteRow } from '../testing/in-memory-timeline';
import { type ConversationTimelineRequest, getConversationTimeline } from './get-conversation-timeline.usecase';

describe('getConversationTimeline', () => {
  const b1 = businessScope('b1');
  const at = (second: number) => new Date(Date.UTC(2026, 10, 29, 12, 0, second));
  const codec = new ListCursorCodec('a-test-secret-of-enough-length');
  let lookup: InMemoryConversationLookup;
  let timeline: InMemoryTimeline;
  let employees: InMemoryAiEmployees;
  const read = (request: Partial<ConversationTimelineRequest> = {}) =>
    getConversationTimeline({ conversations: lookup.conversations, aiEmployees: employees, ...timeline }, b1, codec, { conversationUuid: 'conv-ana', kinds: [], order: 'asc', limit: 10, ...request });
  const uuids = async (request: Partial<ConversationTimelineRequest> = {}) => (await read(request)).items.map((item) => item.uuid);

  beforeEach(() => {
    lookup = new InMemoryConversationLookup();
    lookup.addContactWithConversation({ _id: 'ana', business_id: 'b1', channel_id: 'ch1' }, { contact: { name: 'Ana', profile_name: null, phone: null, chat_user_id: null } });
    lookup.addContactWithConversation({ _id: 'cy', business_id: 'b2', channel_id: 'ch9' });
    timeline = new InMemoryTimeline();
    employees = new InMemoryAiEmployees();
    employees.rows.push(aiEmployeeRow({ _id: 'ai-olga', business_id: 'b1', name: 'Olga' }));
    const row = { business_id: 'b1', conversation_id: 'conv-ana' };
    timeline.messageRows.push(
      messageRow({ ...row, _id: 'm1', created_at: at(1), body: 'hi' }),
      messageRow({ ...row, _id: 'm2', created_at: at(3), is_from_customer: false, status: 'sent', author: { type: 'ai_employee', uuid: 'ai-olga' } }),
      messageRow({ business_id: 'b2', conversation_id: 'conv-ana', _id: 'm-other', created_at: at(2) }),
    );
    timeline.eventRows.push(
      noteRow({ ...row, _id: 'n1', created_at: at(3), body: 'a note' }),
      noteRow({ ...row, _id: 'e1', created_at: at(2), kind: 'event', event_type: 'conversation.tags_changed', author: { type: 'system', uuid: null } }),
    );
  });

  it("reads the conversation's messages, notes and events as one list, a message before a note of the same instant", async () => {
    expect(await uuids()).toEqual(['m1', 'e1', 'm2', 'n1']);
    expect(await uuids({ order: 'desc' })).toEqual(['n1', 'm2', 'e1', 'm1']);
  });

  it('names the customer from the conversation and an AI author by its current name', async () => {
    const { items } = await read({ kinds: ['message'] });
    expect(items.map((item) => item.author)).toEqual([
      expect.objectContaining({ type: 'customer', uuid: 'ana', name: 'Ana' }),
      expect.objectContaining({ type: 'ai_employee', uuid: 'ai-olga', name: 'Olga' }),
    ]);
  });

  it('shows only the kinds asked for', async () => {
    expect(await uuids({ kinds: ['note'] })).toEqual(['n1']);
    expect(await uuids({ kinds: ['event', 'message'] })).toEqual(['m1', 'e1', 'm2']);
  });

  it('pages with a cursor bound to the conversation, kinds and order', async () => {
    const first = await read({ limit: 2 });
    expect(first).toMatchObject({ has_more: true });
    expect(first.items.map((item) => item.uuid)).toEqual(['m1', 'e1']);
    const second = await read({ limit: 2, cursor: first.next_cursor });
    expect(second).toMatchObject({ has_more: false, next_cursor: '' });
    expect(second.items.map((item) => item.uuid)).toEqual(['m2', 'n1']);
    await expect(read({ limit: 2, cursor: first.next_cursor, kinds: ['message'] })).rejects.toMatchObject({ code: 'INVALID_CURSOR' });
    await expect(read({ limit: 2, cursor: first.next_cursor, order: 'desc' })).rejects.toMatchObject({ code: 'INVALID_CURSOR' });
  });

  it.each([[0], [101], [1.5]])('answers INVALID_REQUEST for limit %p', async (limit) => {
    await expect(read({ limit })).rejects.toMatchObject({ code: 'INVALID_REQUEST' });
  });

  it('answers INVALID_REQUEST for an unknown kind', async () => {
    await expect(read({ kinds: ['message', 'reaction'] })).rejects.toMatchObject({ code: 'INVALID_REQUEST', message: expect.stringContaining('"reaction"') });
  });

  it("answers CONVERSATION_NOT_FOUND for an unknown uuid or another business's conversation", async () => {
    await expect(read({ conversationUuid: 'conv-nobody' })).rejects.toMatchObject({ code: 'CONVERSATION_NOT_FOUND' });
    await expect(read({ conversationUuid: 'conv-cy' })).rejects.toMatchObject({ code: 'CONVERSATION_NOT_FOUND' });
  });
});
