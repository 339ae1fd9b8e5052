import { businessScope } from '@cmsg/dal';
import { MAX_CHANGE_ROUNDS } from '../conversation/conversation-change';
import { InMemoryConversationChanges } from '../testing/in-memory-conversation-changes';
import { InMemoryConversationLookup } from '../testing/in-memory-conversations';
import { RecordingOutbox } from '../testing/recording-outbox';
import { type InboxStatusChange, setInboxStatus, setInboxStatusByReference } from './set-inbox-status.usecase';

describe('setInboxStatusByReference', () => {
  const b1 = businessScope('b1');
  const NOW = new Date('2026-11-29T12:00:00.000Z');
  const byToken = { type: 'api_token' as const, uuid: 'tok-1' };
  let lookup: InMemoryConversationLookup;
  let changes: InMemoryConversationChanges;
  let outbox: RecordingOutbox;
  const ports = () => ({ lookup, inboxStatus: changes, outbox, clock: () => NOW });
  const set = (change: InboxStatusChange, reference = { uuid: 'conv-ana' }, scope = b1) => setInboxStatusByReference(ports(), scope, reference, change);
  const ana = () => lookup.conversationRows.find((row) => row._id === 'conv-ana')!;

  beforeEach(() => {
    lookup = new InMemoryConversationLookup();
    lookup.addContactWithConversation({ _id: 'ana', business_id: 'b1', channel_id: 'ch1' }, { inbox_status: 'resolved', event_sequence: 2 });
    lookup.addContactWithConversation({ _id: 'cy', business_id: 'b2', channel_id: 'ch9' });
    changes = new InMemoryConversationChanges(lookup);
    outbox = new RecordingOutbox();
  });

  it('marks pending (marked_pending by default) with one inbox_status_changed entry, recorded with its sequence', async () => {
    expect(await set({ target: 'pending', actor: byToken })).toEqual({ conversation: { uuid: 'conv-ana' }, inbox_status: 'pending' });
    expect(ana()).toMatchObject({ inbox_status: 'pending', pending_reason: 'marked_pending', updated_at: NOW });
    const entry = {
      id: expect.any(String),
      type: 'conversation.inbox_status_changed',
      conversation_id: 'conv-ana',
      data: { from: 'resolved', to: 'pending', reason: 'marked_pending' },
      author: { type: 'api_token', uuid: 'tok-1', name: null },
      created_at: NOW,
    };
    expect(changes.outboxes.get('conv-ana')).toEqual([entry]);
    expect(outbox.recorded).toEqual([{ collection: 'conversations', businessId: 'b1', documentId: 'conv-ana', entries: [{ ...entry, sequence: 3, conversation: expect.objectContaining({ _id: 'conv-ana', event_sequence: 3, inbox_status: 'pending' }) }] }]);
  });

  it('keeps the reason given, and resolving clears it', async () => {
    await set({ target: 'pending', pendingReason: 'human_handoff', actor: { type: 'system', uuid: null } });
    expect(ana().pending_reason).toBe('human_handoff');
    expect(outbox.recorded[0]!.entries[0]!.author).toEqual({ type: 'system', uuid: null, name: null });
    await set({ target: 'resolved', pendingReason: 'ignored', actor: byToken });
    expect(ana()).toMatchObject({ inbox_status: 'resolved', pending_reason: null });
    expect(outbox.recorded[1]!.entries[0]!.data).toEqual({ from: 'pending', to: 'resolved', reason: null });
  });

  it('answers a conversation already in the status with no change and no event', async () => {
    expect(await set({ target: 'resolved', actor: byToken })).toEqual({ conversation: { uuid: 'conv-ana' }, inbox_status: 'resolved' });
    expect(changes.outboxes.size).toBe(0);
    expect(outbox.recorded).toEqual([]);
  });

  it('refuses to resolve an AI-attended conversation whose media awaits transcription (TRANSCRIPTION_REQUIRED_TO_RESOLVE)', async () => {
    Object.assign(ana(), { inbox_status: 'pending', ai_employee_id: 'ai-1', media_awaiting_transcription: 1 });
    await expect(set({ target: 'resolved', actor: byToken })).rejects.toMatchObject({ code: 'TRANSCRIPTION_REQUIRED_TO_RESOLVE' });
    expect(ana().inbox_status).toBe('pending');
    // Human-attended: exempt.
    ana().ai_employee_id = null;
    await set({ target: 'resolved', actor: byToken });
    expect(ana().inbox_status).toBe('resolved');
  });

  it('decides again on the conversation as it is when a concurrent change got there first', async () => {
    const stale = { ...ana() };
    Object.assign(ana(), { inbox_status: 'pending', pending_reason: 'human_handoff' });
    expect(await setInboxStatus(ports(), b1, stale, { target: 'pending', actor: byToken })).toEqual({ conversation: { uuid: 'conv-ana' }, inbox_status: 'pending' });
    expect(ana().pending_reason).toBe('human_handoff');
    expect(outbox.recorded).toEqual([]);
  });

  it('retries an update that lost, and gives up with UPDATE_FAILED after MAX_CHANGE_ROUNDS', async () => {
    changes.losses = 1;
    await set({ target: 'pending', actor: byToken });
    expect(outbox.recorded).toHaveLength(1);
    changes.losses = MAX_CHANGE_ROUNDS;
    await expect(set({ target: 'resolved', actor: byToken })).rejects.toMatchObject({ code: 'UPDATE_FAILED', message: 'The conversation kept changing during the inbox status change; retry.' });
    expect(ana().inbox_status).toBe('pending');
  });

  it("answers CONVERSATION_NOT_FOUND for another business's conversation, changing nothing", async () => {
    await expect(set({ target: 'pending', actor: byToken }, { uuid: 'conv-cy' })).rejects.toMatchObject({ code: 'CONVERSATION_NOT_FOUND' });
    await expect(set({ target: 'pending', actor: byToken }, { uuid: 'conv-ana' }, businessScope('b2'))).rejects.toMatchObject({ code: 'CONVERSATION_NOT_FOUND' });
    expect(lookup.conversationRows.map((row) => row.inbox_status)).toEqual(['resolved', 'resolved']);
    expect(outbox.recorded).toEqual([]);
  });
});
