import { businessScope, type NewMessage } from '@cmsg/dal';
import { operationMessageId } from '../conversation/operation-ids';
import { InMemorySendWorld } from '../testing/in-memory-send-world';
import { type SendLease, leaseOnly } from './send-lease';
import { sendOutcomeOf } from './send-outcome.usecase';

describe('sendOutcomeOf', () => {
  const b1 = businessScope('b1');
  const REAL_NOW = Date.UTC(2026, 10, 29, 12);
  const LEASE_MS = 60_000;
  const messageId = operationMessageId('b1', 'op-1', 0);
  let world: InMemorySendWorld;
  const outcome = (lease: SendLease = leaseOnly(LEASE_MS)) => {
    const { messages, conversationMessages, authors, outbox } = world.dependencies();
    return sendOutcomeOf({ messages, conversationMessages, authors, outbox, lease }, b1, 'op-1', () => REAL_NOW);
  };
  const store = (fields: Partial<NewMessage>) =>
    world.messages.insertIfAbsent(b1, { _id: messageId, conversation_id: 'conv-ana', is_from_customer: false, created_at: new Date(REAL_NOW - 5_000), body: 'hi', content_type: 'text', ...fields });

  beforeEach(() => {
    world = new InMemorySendWorld(REAL_NOW);
    world.lookup.addContactWithConversation({ _id: 'ana', business_id: 'b1', channel_id: 'ch1' });
  });

  it('is absent when the operation never stored a message', async () => {
    expect(await outcome()).toEqual({ kind: 'absent' });
  });

  it('is sent with the time its send started', async () => {
    await store({ status: 'sent', sending_started_at: new Date(REAL_NOW - 4_000) });
    expect(await outcome()).toEqual({ kind: 'sent', message_id: messageId, sent_at: new Date(REAL_NOW - 4_000) });
  });

  it('is failed with the stored error, SEND_FAILED where none was stored', async () => {
    await store({ status: 'failed', error: { code: 'WINDOW_CLOSED', message: 'closed', provider_code: '131047' } });
    expect(await outcome()).toEqual({ kind: 'failed', message_id: messageId, error: { code: 'WINDOW_CLOSED', message: 'closed', provider_code: '131047' } });
    world.messages.rows[0]!.error = null;
    expect(await outcome()).toEqual({ kind: 'failed', message_id: messageId, error: { code: 'SEND_FAILED', message: 'The send failed.', provider_code: null } });
  });

  it('is in flight while its sender runs and its lease is not over', async () => {
    await store({ status: 'sending', sending_started_at: new Date(REAL_NOW - 1_000), sending_process: 'sender-a' });
    expect(await outcome()).toEqual({ kind: 'in_flight' });
    expect(world.messages.rows[0]!.status).toBe('sending');
  });

  it('forgets a send cut off before its provider call (its fence taken down): absent, ready to be sent again', async () => {
    await store({ status: 'sending', sending_started_at: new Date(REAL_NOW - 1_000), sending_process: 'sender-gone' });
    const stopped: SendLease = { ms: LEASE_MS, processId: 'me', isRunning: async () => false, takeOverUncalled: async () => true };
    expect(await outcome(stopped)).toEqual({ kind: 'absent' });
    expect(world.messages.rows).toEqual([]);
  });

  it('settles a send cut off after its call as failed with no provider answer, with its message.status_updated entry', async () => {
    await store({ status: 'sending', sending_started_at: new Date(REAL_NOW - LEASE_MS), sending_process: 'sender-a' });
    expect(await outcome()).toEqual({ kind: 'failed', message_id: messageId, error: { code: 'SEND_FAILED', message: expect.stringContaining('outcome is unknown'), provider_code: null } });
    expect(world.outbox.recorded.map((recorded) => recorded.entries[0]!.type)).toEqual(['message.status_updated']);
  });
});
