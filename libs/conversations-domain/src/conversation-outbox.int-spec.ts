import { randomBytes, randomUUID } from 'node:crypto';
import { ConversationOutboxClaimModel, ConversationOutboxModel } from '@cmsg/dal';
import mongoose from 'mongoose';
import type { ConversationEvent } from './conversation-events';
import { ConversationOutbox } from './conversation-outbox';

/** Against the real FerretDB: several relay replicas pass over the same stale events at once. */
describe('ConversationOutbox relay on FerretDB', () => {
  const dbName = `conversations_outbox_it_${randomBytes(4).toString('hex')}`;
  const published: ConversationEvent[] = [];
  const publisher = { publish: async (_conversationId: string, events: ConversationEvent[]) => void published.push(...events) };

  beforeAll(async () => {
    // A database of its own that is left in place (dropping one can stall FerretDB's catalog).
    await mongoose.connect(process.env['MONGODB_URI'] ?? 'mongodb://127.0.0.1:27117/', { dbName, serverSelectionTimeoutMS: 10_000 });
    await ConversationOutboxModel.createIndexes();
    await ConversationOutboxClaimModel.createIndexes();
  });

  afterAll(async () => {
    await mongoose.disconnect();
  });

  it('publishes each stale event once when five relays pass at the same moment, and removes it', async () => {
    const now = new Date();
    const stale = new Date(now.getTime() - 60_000);
    const outbox = new ConversationOutbox(publisher, (error) => {
      throw error;
    });
    const ids = Array.from({ length: 20 }, () => randomUUID());
    for (const id of ids) await outbox.add('b1', randomUUID(), { id, type: 'conversation.inbox_status_changed', payload: { n: id }, created_at: stale });
    const relays = Array.from({ length: 5 }, () => new ConversationOutbox(publisher, () => undefined));
    await Promise.all(relays.map((relay) => relay.flushStale(30_000, 100, now)));
    expect(published.map((event) => event.id).sort()).toEqual([...ids].sort());
    expect(await ConversationOutboxModel.countDocuments({ _id: { $in: ids } })).toBe(0);
  });

  it('stores an event once whatever the concurrency, and a flush publishes and removes it', async () => {
    published.length = 0;
    const outbox = new ConversationOutbox(publisher, () => undefined);
    const conversationId = randomUUID();
    const event = { id: randomUUID(), type: 'conversation.inbox_status_changed', payload: {}, created_at: new Date() };
    await Promise.all(Array.from({ length: 5 }, () => outbox.add('b1', conversationId, event)));
    await outbox.flush(conversationId);
    expect(published.map((item) => item.id)).toEqual([event.id]);
    expect(await ConversationOutboxModel.countDocuments({ conversation_id: conversationId })).toBe(0);
  });
});
