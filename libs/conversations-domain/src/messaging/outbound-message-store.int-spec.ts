import { randomUUID } from 'node:crypto';
import { CatalogError } from '@cmsg/errors';
import { AiEmployeeRepository, ConversationRepository, MessageRepository, type OutboxEntry, businessScope, ensureIndexes } from '@cmsg/dal';
import { type OutboxRecorder, SYSTEM_AUTHOR, messageAuthors } from '@cmsg/events';
import { connectToOwnDatabase, dropConnectedDatabase } from '@cmsg/testing-database';
import { type NewOutboundMessage, OutboundMessageStore, storedFailure } from './outbound-message-store';
import { type SendLease, leaseOnly } from './send-lease';

/** The recorder port as the store calls it: the entries, in order, with the sequence a change took. */
class CapturingOutbox implements OutboxRecorder {
  readonly entries: (OutboxEntry & { sequence?: number })[] = [];

  async recordQuietly(_collection: string, _scope: unknown, _documentId: string, entries: readonly OutboxEntry[]): Promise<void> {
    this.entries.push(...entries);
  }
}

/**
 * A message settled as sent, against the real local MongoDB: the update that shows it on its
 * conversation also takes its message.sent sequence (docs/events.md, "Sequence").
 */
describe('OutboundMessageStore.markSent', () => {
  const scope = businessScope(randomUUID());
  const conversations = new ConversationRepository();
  const stores = { messages: new MessageRepository(), conversationMessages: conversations, authors: messageAuthors(new AiEmployeeRepository()) };
  const storeWith = (lease: SendLease) => new OutboundMessageStore(scope, { ...stores, outbox, lease });
  let outbox: CapturingOutbox;
  let store: OutboundMessageStore;

  beforeAll(async () => {
    await connectToOwnDatabase('outbound_it');
    await ensureIndexes();
  });

  afterAll(async () => {
    await dropConnectedDatabase();
  });

  beforeEach(() => {
    outbox = new CapturingOutbox();
    store = storeWith(leaseOnly(60_000));
  });

  async function conversation(): Promise<string> {
    const id = randomUUID();
    const now = new Date();
    expect(await conversations.createIfAbsent(scope, { _id: id, contact_id: randomUUID(), channel_id: 'c', sort_at: now, created_at: now, updated_at: now })).toBe(true);
    return id;
  }

  function claim(conversationId: string, createdAt: Date): NewOutboundMessage {
    return { id: randomUUID(), conversationId, operationId: randomUUID(), part: 0, parts: 1, author: { type: 'api_token', uuid: randomUUID() }, body: 'hello', contentType: 'text', createdAt, status: 'sending' };
  }

  async function sent(message: NewOutboundMessage): Promise<void> {
    expect(await store.insert(message, SYSTEM_AUTHOR)).toBe(true);
    expect(await store.markSent(message, `wamid.${randomUUID()}`, SYSTEM_AUTHOR)).toMatchObject({ _id: message.id, status: 'sent' });
  }

  it('shows the message on its conversation and records its message.sent entry with the sequence that update took', async () => {
    const id = await conversation();
    const first = claim(id, new Date(Date.now() - 1000));
    const second = claim(id, new Date());
    await sent(first);
    await sent(second);

    const stored = await conversations.findById(scope, id);
    expect(stored?.last_message).toMatchObject({ uuid: second.id, is_from_customer: false });
    expect(stored?.unread_count ?? 0).toBe(0);
    expect(outbox.entries.map((entry) => [entry.type, entry.sequence])).toEqual([
      ['message.sent', 1],
      ['message.sent', 2],
    ]);
    expect(stored?.event_sequence).toBe(2);
  });

  it('a message older than the one shown leaves the conversation as it is and takes no sequence (the recorder takes the next one)', async () => {
    const id = await conversation();
    const newer = claim(id, new Date());
    const older = claim(id, new Date(Date.now() - 60_000));
    await sent(newer);
    await sent(older);

    const stored = await conversations.findById(scope, id);
    expect(stored?.last_message?.uuid).toBe(newer.id);
    expect(outbox.entries.map((entry) => entry.sequence)).toEqual([1, undefined]);
    expect(stored?.event_sequence).toBe(1);
  });

  it('keeps a provider outcome failed with its provider_code, on the message, its event and a repeat\'s error (CONTRACT 10.3)', async () => {
    const id = await conversation();
    const message = claim(id, new Date());
    expect(await store.insert(message, SYSTEM_AUTHOR)).toBe(true);
    await store.markFailed(message, new CatalogError('RECIPIENT_UNDELIVERABLE', 'undeliverable', { providerCode: '131026' }), SYSTEM_AUTHOR);

    const stored = await store.find(message.id);
    expect(stored).toMatchObject({ status: 'failed', error: { code: 'RECIPIENT_UNDELIVERABLE', message: 'undeliverable', provider_code: '131026' } });
    expect(outbox.entries.at(-1)).toMatchObject({ type: 'message.status_updated', data: { status: 'failed', error: { code: 'RECIPIENT_UNDELIVERABLE', provider_code: '131026' } } });
    expect(storedFailure(stored!)).toMatchObject({ code: 'RECIPIENT_UNDELIVERABLE', httpStatus: 422, providerCode: '131026' });
  });

  describe('settle, from another process than the one that made the call', () => {
    const running = new Set<string>();
    /** Call fences still up, as `channel/fence id` (SendCallFence): a send whose fence is up never called. */
    const fencesUp = new Set<string>();
    const processLease = (processId: string): SendLease => ({
      ms: 60_000,
      processId,
      isRunning: async (other) => other === processId || running.has(other),
      takeOverUncalled: async ({ channelId, fenceId }) => fencesUp.delete(`${channelId}/${fenceId}`),
    });

    it('waits while that process runs, and answers what it stored', async () => {
      running.add('sender-a');
      const sender = storeWith(processLease('sender-a'));
      const repeat = storeWith(processLease('sender-b'));
      const message = claim(await conversation(), new Date());
      expect(await sender.insert(message, SYSTEM_AUTHOR)).toBe(true);
      const found = (await repeat.find(message.id))!;
      expect(found).toMatchObject({ status: 'sending', sending_process: 'sender-a' });

      const settled = repeat.settle(found);
      await new Promise((resolve) => setTimeout(resolve, 500));
      await sender.markSent(message, 'wamid.late', SYSTEM_AUTHOR);
      await expect(settled).resolves.toMatchObject({ status: 'sent', provider_message_id: 'wamid.late' });
    });

    it('settles a send of a process that stopped as failed with no provider answer at once, long before its lease ends', async () => {
      running.add('sender-c');
      const sender = storeWith(processLease('sender-c'));
      const message = claim(await conversation(), new Date());
      expect(await sender.insert(message, SYSTEM_AUTHOR)).toBe(true);
      running.delete('sender-c');

      const started = Date.now();
      const settled = await storeWith(processLease('sender-d')).settle((await sender.find(message.id))!);
      expect(settled).toMatchObject({ status: 'failed', error: { code: 'SEND_FAILED', provider_code: null } });
      expect(Date.now() - started).toBeLessThan(5_000);
      // Had the process only stalled (its heartbeat lapsed), the answer of its call still comes, and
      // is what the provider did: it is kept. Nothing is sent again either way.
      await expect(sender.markSent(message, 'wamid.late', SYSTEM_AUTHOR)).resolves.toMatchObject({ status: 'sent', provider_message_id: 'wamid.late' });
    });

    it('forgets a send of a process that stopped before its provider call (the fence its claim recorded still up): null, the claim gone, a new one may be taken', async () => {
      running.add('sender-e');
      const sender = storeWith(processLease('sender-e'));
      const message = { ...claim(await conversation(), new Date()), callFence: randomUUID() };
      fencesUp.add(`c/${message.callFence}`);
      expect(await sender.insert(message, SYSTEM_AUTHOR)).toBe(true);
      expect(await sender.find(message.id)).toMatchObject({ sending_fence: message.callFence });
      // Another attempt's fence proves nothing of this claim.
      fencesUp.add(`c/${message.id}`);
      running.delete('sender-e');
      const entries = outbox.entries.length;

      const repeat = storeWith(processLease('sender-f'));
      await expect(repeat.settle((await sender.find(message.id))!)).resolves.toBeNull();
      expect([await repeat.find(message.id), fencesUp.has(`c/${message.callFence}`), fencesUp.has(`c/${message.id}`), outbox.entries.length]).toEqual([null, false, true, entries]);
      expect(await repeat.insert(message, SYSTEM_AUTHOR)).toBe(true);
    });

    it('settles a cut-off send as failed when the fence its claim recorded is gone, whatever other fence stands', async () => {
      running.add('sender-g');
      const sender = storeWith(processLease('sender-g'));
      const message = { ...claim(await conversation(), new Date()), callFence: randomUUID() };
      expect(await sender.insert(message, SYSTEM_AUTHOR)).toBe(true);
      fencesUp.add(`c/${randomUUID()}`);
      running.delete('sender-g');
      await expect(storeWith(processLease('sender-h')).settle((await sender.find(message.id))!)).resolves.toMatchObject({ status: 'failed', error: { code: 'SEND_FAILED' } });
    });

    it("takes over a claim stored before fences were recorded by the fence named after its message (the fence's old name)", async () => {
      running.add('sender-i');
      const sender = storeWith(processLease('sender-i'));
      const message = claim(await conversation(), new Date());
      expect(await sender.insert(message, SYSTEM_AUTHOR)).toBe(true);
      expect(await sender.find(message.id)).toMatchObject({ sending_fence: null });
      fencesUp.add(`c/${message.id}`);
      running.delete('sender-i');
      await expect(storeWith(processLease('sender-j')).settle((await sender.find(message.id))!)).resolves.toBeNull();
    });
  });
});
