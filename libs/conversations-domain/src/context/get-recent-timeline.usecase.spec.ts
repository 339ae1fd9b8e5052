import { businessScope } from '@cmsg/dal';
import { InMemoryConversationLookup } from '../testing/in-memory-conversations';
import { InMemoryTimeline, messageRow, noteRow } from '../testing/in-memory-timeline';
import { getRecentTimeline } from './get-recent-timeline.usecase';

describe('getRecentTimeline', () => {
  const b1 = businessScope('b1');
  const at = (second: number) => new Date(Date.UTC(2026, 10, 29, 12, 0, second));
  let lookup: InMemoryConversationLookup;
  let timeline: InMemoryTimeline;
  const recent = (limit: number, uuid = 'conv-ana') => getRecentTimeline({ lookup, ...timeline }, b1, uuid, limit);

  beforeEach(() => {
    lookup = new InMemoryConversationLookup();
    lookup.addContactWithConversation({ _id: 'ana', business_id: 'b1', channel_id: 'ch1' });
    lookup.addContactWithConversation({ _id: 'cy', business_id: 'b2', channel_id: 'ch9' });
    timeline = new InMemoryTimeline();
    const row = { business_id: 'b1', conversation_id: 'conv-ana' };
    timeline.messageRows.push(
      messageRow({ ...row, _id: 'm1', created_at: at(1), body: 'hello' }),
      messageRow({ ...row, _id: 'm2', created_at: at(2), body: 'hi, how can I help?', is_from_customer: false }),
      messageRow({ ...row, _id: 'm3', created_at: at(4), body: '', content_type: 'audio', transcription: 'where is my order' }),
    );
    timeline.eventRows.push(
      noteRow({ ...row, _id: 'n1', created_at: at(3), body: 'VIP customer' }),
      noteRow({ ...row, _id: 'e1', created_at: at(3), kind: 'event', event_type: 'conversation.tags_changed' }),
    );
  });

  it('answers the newest messages and notes oldest first, events left out, media with its transcription', async () => {
    expect((await recent(10)).entries).toEqual([
      { role: 'customer', text: 'hello', at: at(1).toISOString() },
      { role: 'business', text: 'hi, how can I help?', at: at(2).toISOString() },
      { role: 'note', text: 'VIP customer', at: at(3).toISOString() },
      { role: 'customer', text: expect.stringContaining('where is my order'), at: at(4).toISOString() },
    ]);
  });

  it('keeps the newest `limit` rows; 0 or less is the default, more than the cap the cap', async () => {
    expect((await recent(2)).entries.map((entry) => entry.at)).toEqual([at(3).toISOString(), at(4).toISOString()]);
    expect((await recent(0)).entries).toHaveLength(4);
  });

  it("answers CONVERSATION_NOT_FOUND for an unknown uuid or another business's conversation", async () => {
    await expect(recent(10, 'conv-nobody')).rejects.toMatchObject({ code: 'CONVERSATION_NOT_FOUND' });
    await expect(recent(10, 'conv-cy')).rejects.toMatchObject({ code: 'CONVERSATION_NOT_FOUND' });
  });
});
