import { randomUUID } from 'node:crypto';
import { connectToOwnDatabase, dropConnectedDatabase } from '@cmsg/testing-database';
import { ensureIndexes } from '../mongo-connection';
import { businessScope } from '../shared/business-scope';
import type { OutboxEntry } from '../shared/outbox-entry.schema';
import { ConversationRepository } from './conversation.repository';

/**
 * `updated_at` only moves forward (GET /conversations?updated_since=): a step that took its time
 * earlier and writes later, such as an inbound message shown on its conversation after the
 * conversation was resolved meanwhile, must not hide the later change from a client polling
 * updated_since. Found by conversation-filters.int-spec.ts on a loaded machine (2026-11-30).
 */
describe('ConversationRepository updated_at', () => {
  const scope = businessScope(randomUUID());
  const conversations = new ConversationRepository();
  const at = (ms: number) => new Date(Date.UTC(2026, 10, 30, 12, 0, 0, ms));
  const entry = (type: string, now: Date): OutboxEntry => ({ id: randomUUID(), type, conversation_id: null, data: {}, author: { type: 'system', uuid: null, name: null }, created_at: now }) as OutboxEntry;

  beforeAll(async () => {
    await connectToOwnDatabase('conversation_updated_at_it');
    await ensureIndexes();
  });

  afterAll(async () => {
    await dropConnectedDatabase();
  });

  async function conversation(): Promise<string> {
    const id = randomUUID();
    expect(await conversations.createIfAbsent(scope, { _id: id, contact_id: randomUUID(), channel_id: 'c', sort_at: at(0), created_at: at(0), updated_at: at(0), inbox_status: 'open' })).toBe(true);
    return id;
  }

  it('keeps the later change when a step stamped earlier writes after it', async () => {
    const id = await conversation();
    // The inbound message is counted at 100 ms...
    expect(await conversations.applyInboundMessage(scope, id, { messageId: randomUUID(), sentAt: at(90), awaitingMedia: false, event: entry('message.received', at(100)), now: at(100) })).not.toBeNull();
    // ...the conversation is resolved at 200 ms...
    expect(await conversations.changeInboxStatus(scope, id, { from: 'open', to: 'resolved', pendingReason: null, onlyIfResolvable: false, event: entry('conversation.inbox_status_changed', at(200)), now: at(200) })).not.toBeNull();
    // ...and only then is the inbound message shown, with the time its step took at 100 ms.
    await conversations.showLastMessage(scope, id, { uuid: randomUUID(), body: 'hola', content_type: 'text', is_from_customer: true, created_at: at(90) }, at(100));
    const stored = await conversations.findById(scope, id);
    expect(stored).toMatchObject({ inbox_status: 'resolved', updated_at: at(200), last_message: { body: 'hola' } });
  });

  it('moves forward on every kind of change', async () => {
    const id = await conversation();
    await conversations.showLastMessage(scope, id, { uuid: randomUUID(), body: 'a', content_type: 'text', is_from_customer: false, created_at: at(10) }, at(300));
    expect((await conversations.findById(scope, id))?.updated_at).toEqual(at(300));
    expect(await conversations.addTags(scope, id, ['t1'], entry('conversation.tags_changed', at(400)), at(400))).not.toBeNull();
    expect((await conversations.findById(scope, id))?.updated_at).toEqual(at(400));
    expect(await conversations.changeOwner(scope, id, { from: null, to: 'ai-1', event: entry('conversation.owner_changed', at(350)), now: at(350) })).not.toBeNull();
    expect((await conversations.findById(scope, id))?.updated_at).toEqual(at(400));
  });
});
