import { webhookTimestampToDate } from '@cmsg/chat-platform';
import { CUSTOMER_MESSAGE_RECEIVED } from '@cmsg/conversation-commands';
import { newConversationEvent } from '@cmsg/conversations-domain';
import { type BusinessScope, ChannelModel, ConversationModel, MessageModel, businessScope, scopedFilter, isDuplicateKeyError } from '@cmsg/dal';
import { currentRequestId, type Logger } from '@cmsg/platform';
import { inboundAiRunCommand, shouldQueueAiRun } from './ai-run-command';
import type { InboundMessageRecord } from './chat-inbound-record';
import { type InboundMediaDependencies, type MediaTranscriptionStatus, type MessageWithMedia, processInboundMedia } from './inbound-media';
import { type InboundContent, inboundContentOf } from './inbound-message-content';
import { retryMediaAwaitingTranscription } from './media-awaiting-retry';
import { inboundMessageTime } from './inbound-message-time';
import { inboxIds } from './name-based-ids';
import type { AiRunQueue, ConversationEventsOutbox } from './ports';
import { type InboundChannel, type SenderConversation, resolveSenderConversation } from './sender-conversation';

export interface InboxIngestDependencies extends InboundMediaDependencies {
  aiRuns: AiRunQueue;
  events: ConversationEventsOutbox;
  logger: Logger;
  now: () => Date;
}

/** Published on conversation-events for every new customer message (the scheduler cancels cancel_on_customer_reply schedules on it). */
export { CUSTOMER_MESSAGE_RECEIVED };

export type MessageIngestOutcome =
  | { outcome: 'unknown_channel' | 'unknown_sender' }
  | { outcome: 'recorded'; messageId: string; conversationId: string; media: MediaTranscriptionStatus | null; aiRunQueued: boolean };

interface StoredInboundMessage extends Partial<MessageWithMedia> {
  _id: string;
  business_id: string;
  ingest: { conversation_applied?: boolean; ai_run_queued?: boolean } | null;
}

/**
 * One inbound customer message (CONTRACT 7), safe to run again for the same delivery: the channel
 * by phone_number_id, the sender's contact and conversation (created for a new sender), the message
 * once per provider message id, then the conversation (window, last message, unread count, media
 * awaiting transcription), the media, and an AI run when an AI owns the conversation.
 */
export async function ingestInboundMessage(dependencies: InboxIngestDependencies, record: InboundMessageRecord, attempt: number): Promise<MessageIngestOutcome> {
  const now = dependencies.now();
  const channel = await ChannelModel.findOne({ phone_number_id: record.phone_number_id }).lean<InboundChannel>();
  if (!channel) return { outcome: 'unknown_channel' };
  const resolved = await resolveSenderConversation(channel, record.sender, now);
  if (!resolved) return { outcome: 'unknown_sender' };
  const scope = businessScope(channel.business_id);
  const conversationId = resolved.conversation._id;
  const sentAt = inboundMessageTime(webhookTimestampToDate(record.message.timestamp), new Date(record.received_at), now);
  const content = inboundContentOf(record.message);
  const message = await recordMessage(scope, channel._id, conversationId, record.message.id, content, sentAt);

  if (!message.ingest?.conversation_applied) {
    await applyToConversation(scope, dependencies.events, conversationId, message._id, content, sentAt, now);
    await recountMediaAwaiting(scope, conversationId);
    await MessageModel.updateOne({ _id: message._id }, { $set: { 'ingest.conversation_applied': true } });
    await dependencies.events.flushQuietly(conversationId);
  }

  let media: MediaTranscriptionStatus | null = null;
  if (message.media) {
    media = await processInboundMedia(dependencies, channel, message as MessageWithMedia, attempt);
  }
  // Earlier media still awaiting (e.g. the vision wallet was empty then) gets another chance first.
  const awaiting = await recountMediaAwaiting(scope, conversationId);
  if (awaiting > 0 && (await retryMediaAwaitingTranscription(dependencies, channel, scope, conversationId, message._id)) > 0) {
    await recountMediaAwaiting(scope, conversationId);
  }

  let aiRunQueued = message.ingest?.ai_run_queued ?? false;
  if (!aiRunQueued) {
    const conversation = await ConversationModel.findOne(scopedFilter(scope, { _id: conversationId })).lean<SenderConversation>();
    if (conversation && shouldQueueAiRun(conversation)) {
      const command = inboundAiRunCommand({ businessId: scope.businessId, conversationUuid: conversationId, messageId: message._id, requestId: currentRequestId() ?? null, now });
      await dependencies.aiRuns.submit(conversationId, command);
      await MessageModel.updateOne({ _id: message._id }, { $set: { 'ingest.ai_run_queued': true } });
      aiRunQueued = true;
    }
  }
  return { outcome: 'recorded', messageId: message._id, conversationId, media, aiRunQueued };
}

/** The message, inserted once: its id derives from the provider's message id. */
async function recordMessage(
  scope: BusinessScope,
  channelId: string,
  conversationId: string,
  providerMessageId: string,
  content: InboundContent,
  sentAt: Date,
): Promise<StoredInboundMessage> {
  const id = inboxIds.message(channelId, providerMessageId);
  try {
    await MessageModel.create({
      _id: id,
      business_id: scope.businessId,
      conversation_id: conversationId,
      is_from_customer: true,
      body: content.body,
      content_type: content.content_type,
      status: 'received',
      media_transcription_pending: content.media !== null,
      provider_message_id: providerMessageId,
      created_at: sentAt,
      media: content.media ? { provider_media_id: content.media.provider_media_id, mime_type: content.media.mime_type, file_name: content.media.file_name } : null,
      ingest: { conversation_applied: false, ai_run_queued: false },
    });
  } catch (error) {
    if (!isDuplicateKeyError(error)) throw error;
  }
  const message = await MessageModel.findOne(scopedFilter(scope, { _id: id })).lean<StoredInboundMessage>();
  if (!message) throw new Error(`inbound message ${id} vanished right after it was recorded`);
  return message;
}

/**
 * Counts the message on its conversation once. The counters move in one update guarded by the
 * last applied message id: a crash after it and before the message is marked applied repeats
 * the guarded update, which then changes nothing. Last message and sort key follow the newest
 * message by time, so a late redelivery of an old message never hides a newer one. The event
 * announcing the message is stored first, under an id derived from the message, so a retry stores
 * it once and a crash before the update leaves it to the outbox relay (the message is recorded).
 */
async function applyToConversation(
  scope: BusinessScope,
  events: ConversationEventsOutbox,
  conversationId: string,
  messageId: string,
  content: InboundContent,
  sentAt: Date,
  now: Date,
): Promise<void> {
  const event = {
    ...newConversationEvent(
      CUSTOMER_MESSAGE_RECEIVED,
      { business_id: scope.businessId, conversation_uuid: conversationId, message_uuid: messageId, content_type: content.content_type, sent_at: sentAt.toISOString() },
      now,
    ),
    id: inboxIds.customerMessageEvent(messageId),
  };
  await events.add(scope.businessId, conversationId, event);
  await ConversationModel.updateOne(scopedFilter(scope, { _id: conversationId, last_inbound_message_id: { $ne: messageId } }), {
    $set: { last_inbound_message_id: messageId, updated_at: now },
    $max: { last_inbound_at: sentAt },
    $inc: { unread_count: 1 },
  });
  await ConversationModel.updateOne(
    scopedFilter(scope, { _id: conversationId, $or: [{ last_message: null }, { 'last_message.created_at': { $lte: sentAt } }] }),
    {
      $set: {
        last_message: { uuid: messageId, body: content.body, content_type: content.content_type, is_from_customer: true, created_at: sentAt },
        sort_at: sentAt,
      },
    },
  );
}

/**
 * media_awaiting_transcription is recounted from the messages rather than incremented: a retried
 * or crashed ingest can then never leave it off by one (which would block resolving for good).
 */
async function recountMediaAwaiting(scope: BusinessScope, conversationId: string): Promise<number> {
  const awaiting = await MessageModel.countDocuments(scopedFilter(scope, { conversation_id: conversationId, is_from_customer: true, media_transcription_pending: true }));
  await ConversationModel.updateOne(scopedFilter(scope, { _id: conversationId }), { $set: { media_awaiting_transcription: awaiting } });
  return awaiting;
}
