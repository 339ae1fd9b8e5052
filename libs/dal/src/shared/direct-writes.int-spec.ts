import { randomUUID } from 'node:crypto';
import { connectToOwnDatabase, dropConnectedDatabase } from '@cmsg/testing-database';
import { ConversationRepository } from '../conversation/conversation.repository';
import { ConversationModel } from '../conversation/conversation.schema';
import { MessageRepository } from '../message/message.repository';
import { MessageModel } from '../message/message.schema';
import { ensureIndexes } from '../mongo-connection';
import { businessScope } from './business-scope';
import type { OutboxEntry } from './outbox-entry.schema';

/**
 * The writes made per send and per conversation change go through the driver
 * (TenantRepository.findOneAndUpdateDirect): each must store what the same update through mongoose
 * (its casts, its subdocument schemas) stored before. Each case applies the repository's write to
 * one document and the mongoose update it replaced to a twin, then compares them.
 */
describe('writes through the driver store what mongoose stored', () => {
  const scope = businessScope(randomUUID());
  const conversations = new ConversationRepository();
  const messages = new MessageRepository();
  const at = (ms: number) => new Date(Date.UTC(2026, 10, 30, 12, 0, 0, ms));
  // With more than the schema holds, as a caller's object may: mongoose's cast dropped the extras.
  const entry = (type: string): OutboxEntry =>
    ({ id: randomUUID(), type, conversation_id: randomUUID(), data: { uuid: 'x', empty: {} }, author: { type: 'api_token', uuid: 't', name: 'CRM', extra: 1 }, created_at: at(5), sequence: 3 }) as unknown as OutboxEntry;

  beforeAll(async () => {
    await connectToOwnDatabase('direct_writes_it');
    await ensureIndexes();
  });

  afterAll(async () => {
    await dropConnectedDatabase();
  });

  async function twinConversations(): Promise<[string, string]> {
    const ids: [string, string] = [randomUUID(), randomUUID()];
    for (const id of ids) {
      await conversations.createIfAbsent(scope, { _id: id, contact_id: randomUUID(), channel_id: 'channel', sort_at: at(0), created_at: at(0), updated_at: at(0), inbox_status: 'open', tag_ids: ['a'] });
    }
    return ids;
  }

  /**
   * One difference is wanted: mongoose dropped an empty object inside an entry's `data` (minimize),
   * the driver keeps `data` as built, as the event recorded from it does; so an entry the relay
   * records from the document now carries the data of the one recorded on the fast path.
   */
  async function sameExceptId(model: typeof ConversationModel | typeof MessageModel, [direct, twin]: [string, string]): Promise<void> {
    const [byDriver, byMongoose] = await Promise.all([model.collection.findOne({ _id: direct as never }), model.collection.findOne({ _id: twin as never })]);
    expect(byDriver).not.toBeNull();
    expect(byMongoose).not.toBeNull();
    const outbox = byDriver!['outbox'] as OutboxEntry[];
    expect(outbox.every((stored) => (stored.data as { empty?: unknown }).empty !== undefined)).toBe(true);
    const withoutEmpty = outbox.map((stored) => ({ ...stored, data: { uuid: stored.data['uuid'] } }));
    expect({ ...byDriver, outbox: withoutEmpty, _id: 'id', contact_id: 'contact' }).toEqual({ ...byMongoose, _id: 'id', contact_id: 'contact' });
  }

  it('a conversation change (addTags, removeTags, changeInboxStatus)', async () => {
    const ids = await twinConversations();
    const [added, removed, resolved] = [entry('conversation.tags_changed'), entry('conversation.tags_changed'), entry('conversation.inbox_status_changed')];
    expect(await conversations.addTags(scope, ids[0], ['b'], added, at(10))).toMatchObject({ tag_ids: ['a', 'b'], event_sequence: 1 });
    expect(await conversations.removeTags(scope, ids[0], ['a'], removed, at(20))).toMatchObject({ tag_ids: ['b'], event_sequence: 2 });
    expect(await conversations.changeInboxStatus(scope, ids[0], { from: 'open', to: 'resolved', pendingReason: null, onlyIfResolvable: false, event: resolved, now: at(30) })).toMatchObject({ inbox_status: 'resolved', event_sequence: 3 });
    const twin = { business_id: scope.businessId, _id: ids[1] };
    await ConversationModel.findOneAndUpdate(twin, { $addToSet: { tag_ids: { $each: ['b'] } }, $push: { outbox: added }, $max: { updated_at: at(10) }, $inc: { event_sequence: 1 } });
    await ConversationModel.findOneAndUpdate(twin, { $pull: { tag_ids: { $in: ['a'] } }, $push: { outbox: removed }, $max: { updated_at: at(20) }, $inc: { event_sequence: 1 } });
    await ConversationModel.findOneAndUpdate(twin, { $set: { inbox_status: 'resolved', pending_reason: null }, $push: { outbox: resolved }, $max: { updated_at: at(30) }, $inc: { event_sequence: 1 } });
    await sameExceptId(ConversationModel, ids);
  });

  it("an inbound message counted, and a message shown as the conversation's last", async () => {
    const ids = await twinConversations();
    const received = entry('message.received');
    const messageId = randomUUID();
    expect(await conversations.applyInboundMessage(scope, ids[0], { messageId, sentAt: at(40), awaitingMedia: true, event: received, now: at(50) })).toMatchObject({ unread_count: 1 });
    const shown = { uuid: randomUUID(), body: 'hola', content_type: 'text', is_from_customer: false, created_at: at(60), extra: true };
    expect(await conversations.showLastMessageTakingSequence(scope, ids[0], shown, at(70))).toEqual({ _id: ids[0], event_sequence: 2 });
    const twin = { business_id: scope.businessId, _id: ids[1] };
    await ConversationModel.findOneAndUpdate(twin, {
      $set: { last_inbound_message_id: messageId },
      $max: { last_inbound_at: at(40), updated_at: at(50) },
      $inc: { unread_count: 1, event_sequence: 1, media_awaiting_transcription: 1 },
      $push: { recent_inbound_message_ids: { $each: [messageId], $slice: -50 }, awaiting_media_message_ids: messageId, outbox: received },
    });
    await ConversationModel.findOneAndUpdate(twin, { $set: { last_message: shown, sort_at: at(60), unread_count: 0 }, $max: { updated_at: at(70) }, $inc: { event_sequence: 1 } });
    await sameExceptId(ConversationModel, ids);
  });

  it('a sent message with its message.sent entry', async () => {
    const ids: [string, string] = [randomUUID(), randomUUID()];
    for (const id of ids) await messages.insertIfAbsent(scope, { _id: id, conversation_id: 'c', is_from_customer: false, status: 'sending', created_at: at(0) });
    const sent = entry('message.sent');
    expect(await messages.markSent(scope, ids[0], 'wamid.1', sent)).toMatchObject({ status: 'sent', provider_message_id: 'wamid.1', outbox: [expect.objectContaining({ id: sent.id })] });
    await MessageModel.findOneAndUpdate({ business_id: scope.businessId, _id: ids[1] }, { $set: { status: 'sent', provider_message_id: 'wamid.1', error: null }, $push: { outbox: sent } });
    await sameExceptId(MessageModel, ids);
    expect(await messages.findOutbound(scope, ids[0])).toMatchObject({ _id: ids[0], status: 'sent' });
  });
});
