import { businessScope } from '@cmsg/dal';
import { MAX_CHANGE_ROUNDS } from '../conversation/conversation-change';
import { InMemoryConversationChanges } from '../testing/in-memory-conversation-changes';
import { InMemoryConversationLookup } from '../testing/in-memory-conversations';
import { RecordingOutbox } from '../testing/recording-outbox';
import { DEFAULT_ESCALATION_REASON, escalate } from './escalate.usecase';

describe('escalate', () => {
  const b1 = businessScope('b1');
  const NOW = new Date('2026-11-29T12:00:00.000Z');
  let lookup: InMemoryConversationLookup;
  let changes: InMemoryConversationChanges;
  let outbox: RecordingOutbox;
  const ports = () => ({ lookup, inboxStatus: changes, outbox, clock: () => NOW });
  const ana = () => lookup.conversationRows.find((row) => row._id === 'conv-ana')!;

  beforeEach(() => {
    lookup = new InMemoryConversationLookup();
    lookup.addContactWithConversation({ _id: 'ana', business_id: 'b1', channel_id: 'ch1' }, { inbox_status: 'resolved', event_sequence: 4 });
    lookup.addContactWithConversation({ _id: 'cy', business_id: 'b2', channel_id: 'ch9' }, { inbox_status: 'resolved' });
    changes = new InMemoryConversationChanges(lookup);
    outbox = new RecordingOutbox();
  });

  it('sets the conversation pending with the reason, by the system, with its entry recorded at its sequence', async () => {
    expect(await escalate(ports(), b1, 'conv-ana', 'payment_dispute')).toEqual({ conversation: { uuid: 'conv-ana' }, inbox_status: 'pending' });
    expect(ana()).toMatchObject({ inbox_status: 'pending', pending_reason: 'payment_dispute', updated_at: NOW });
    expect(outbox.recorded).toEqual([
      {
        collection: 'conversations',
        businessId: 'b1',
        documentId: 'conv-ana',
        entries: [expect.objectContaining({ type: 'conversation.inbox_status_changed', data: { from: 'resolved', to: 'pending', reason: 'payment_dispute' }, author: { type: 'system', uuid: null, name: null }, sequence: 5 })],
      },
    ]);
  });

  it('uses action_set_failed when no reason is given', async () => {
    await escalate(ports(), b1, 'conv-ana', '');
    expect(ana().pending_reason).toBe(DEFAULT_ESCALATION_REASON);
    expect(DEFAULT_ESCALATION_REASON).toBe('action_set_failed');
  });

  it('changes nothing on a conversation already pending: the earlier reason stays, no entry', async () => {
    Object.assign(ana(), { inbox_status: 'pending', pending_reason: 'human_handoff' });
    expect(await escalate(ports(), b1, 'conv-ana', 'payment_dispute')).toEqual({ conversation: { uuid: 'conv-ana' }, inbox_status: 'pending' });
    expect(ana().pending_reason).toBe('human_handoff');
    expect(outbox.recorded).toEqual([]);
  });

  it("answers CONVERSATION_NOT_FOUND for an unknown uuid or another business's conversation", async () => {
    await expect(escalate(ports(), b1, 'conv-nobody', 'x')).rejects.toMatchObject({ code: 'CONVERSATION_NOT_FOUND' });
    await expect(escalate(ports(), b1, 'conv-cy', 'x')).rejects.toMatchObject({ code: 'CONVERSATION_NOT_FOUND' });
    expect(lookup.conversationRows.find((row) => row._id === 'conv-cy')!.inbox_status).toBe('resolved');
  });

  it('answers UPDATE_FAILED when every round loses to a concurrent change', async () => {
    changes.losses = MAX_CHANGE_ROUNDS;
    await expect(escalate(ports(), b1, 'conv-ana', 'x')).rejects.toMatchObject({ code: 'UPDATE_FAILED' });
    expect(outbox.recorded).toEqual([]);
  });
});
