import { webhookTimestampToDate } from '@cmsg/chat-platform';
import { CUSTOMER_MESSAGE_RECEIVED } from '@cmsg/conversation-commands';
import { type BusinessScope, type MessageEntity, type OutboxAuthor, businessScope } from '@cmsg/dal';
import { type OutboxRecorder, customerAuthor, customerNameOf, messageTimelineItem, outboxEntry, withConversationChange } from '@cmsg/events';
import { currentRequestId, type Logger } from '@cmsg/platform';
import { inboundAiRunCommand, shouldQueueAiRun } from './ai-run-command';
import type { TemplateStatusPorts } from './apply-template-status.usecase';
import type { UserPreferencePorts } from './apply-user-preference.usecase';
import type { InboundMessageRecord } from './chat-inbound-record';
import { type InboundMediaDependencies, type MediaTranscriptionStatus, hasMedia, processInboundMedia } from './inbound-media';
import { type InboundContent, inboundContentOf } from './inbound-message-content';
import { retryMediaAwaitingTranscription } from './media-awaiting-retry';
import { type ConsentKeywordLists, consentKeywordOf } from './consent-keywords';
import { inboundMessageTime } from './inbound-message-time';
import { inboxIds } from './name-based-ids';
import type { AiRunQueue, BroadcastProgress, InboxRepositories, KeywordConsent, MessageAuthorLookup, RecordConsent } from './ports';
import { resolveSenderConversation } from './sender-conversation';

export interface InboxIngestDependencies extends InboundMediaDependencies {
  /** The collections ingestion reads and writes. */
  repositories: InboxRepositories;
  /** How a delivery status's event names the outbound message's author. */
  messageAuthors: MessageAuthorLookup;
  aiRuns: AiRunQueue;
  /** Records the entries of new conversations, messages and delivery statuses (docs/events.md). */
  events: OutboxRecorder;
  logger: Logger;
  now: () => Date;
  /** The provider's template status updates. */
  templateStatuses: TemplateStatusPorts;
  /** Where a user preference finds its contact (the consent it states goes through recordConsent). */
  userPreferences: Omit<UserPreferencePorts, 'recordConsent'>;
  /** Records consent a keyword states (CONTRACT 10.2); the message is recorded as usual either way. */
  recordConsent?: RecordConsent;
  broadcastProgress?: BroadcastProgress;
}

/** How long after a broadcast's send a customer message counts as its reply (docs/broadcasts.md). */
export const BROADCAST_REPLY_WINDOW_MS = 7 * 24 * 3_600_000;

/** Published on conversation-events for every new customer message, from its message.received entry (the scheduler cancels cancel_on_customer_reply schedules on it). */
export { CUSTOMER_MESSAGE_RECEIVED };

export type MessageIngestOutcome =
  | { outcome: 'unknown_channel' | 'unknown_sender' }
  | { outcome: 'recorded'; messageId: string; conversationId: string; media: MediaTranscriptionStatus | null; aiRunQueued: boolean };

/**
 * One inbound customer message (CONTRACT 7), safe to run again for the same delivery: the channel
 * by phone_number_id, the sender's contact and conversation (created for a new sender), the message
 * once per provider message id, then the conversation (window, last message, unread count, media
 * awaiting transcription, the message's event), the media, and an AI run when an AI owns the
 * conversation.
 */
export async function ingestInboundMessage(dependencies: InboxIngestDependencies, record: InboundMessageRecord, attempt: number): Promise<MessageIngestOutcome> {
  const { repositories } = dependencies;
  const now = dependencies.now();
  const channel = await repositories.channels.findByPhoneNumberIdAcrossBusinesses(record.phone_number_id);
  if (!channel) return { outcome: 'unknown_channel' };
  const resolved = await resolveSenderConversation(repositories, channel, record.sender, now, dependencies.events);
  if (!resolved) return { outcome: 'unknown_sender' };
  const scope = businessScope(channel.business_id);
  const conversationId = resolved.conversation._id;
  const sentAt = inboundMessageTime(webhookTimestampToDate(record.message.timestamp), new Date(record.received_at), now);
  const content = inboundContentOf(record.message);
  const message = await recordMessage(repositories, scope, channel._id, conversationId, record.message.id, content, sentAt);

  if (!message.ingest?.conversation_applied) {
    const author = customerAuthor(resolved.contact._id, customerNameOf(resolved.conversation.contact));
    await applyToConversation(scope, dependencies, message, author, content, sentAt, now);
    await repositories.messages.markIngested(scope, message._id, 'conversation_applied');
  }

  if (!message.ingest?.consent_applied && content.content_type === 'text' && dependencies.recordConsent) {
    await applyConsentKeyword(repositories, scope, dependencies.recordConsent, content.body, {
      contactId: resolved.contact._id,
      conversationId,
      author: customerAuthor(resolved.contact._id, customerNameOf(resolved.conversation.contact)),
    });
    // Once per message: a redelivered STOP never undoes an opt-in the API recorded since.
    await repositories.messages.markIngested(scope, message._id, 'consent_applied');
  }

  let media: MediaTranscriptionStatus | null = null;
  if (hasMedia(message)) media = await processInboundMedia(dependencies, channel, message, attempt);
  // Earlier media still awaiting (e.g. the vision wallet was empty then) gets another chance first.
  const awaiting = (await repositories.conversations.findById(scope, conversationId))?.awaiting_media_message_ids ?? [];
  await retryMediaAwaitingTranscription(dependencies, channel, scope, awaiting, message._id);

  let aiRunQueued = message.ingest?.ai_run_queued ?? false;
  if (!aiRunQueued) {
    const conversation = await repositories.conversations.findById(scope, conversationId);
    if (conversation && shouldQueueAiRun(conversation)) {
      const command = inboundAiRunCommand({ businessId: scope.businessId, conversationUuid: conversationId, messageId: message._id, requestId: currentRequestId() ?? null, now });
      await dependencies.aiRuns.submit(conversationId, command);
      await repositories.messages.markIngested(scope, message._id, 'ai_run_queued');
      aiRunQueued = true;
    }
  }
  await dependencies.broadcastProgress?.replied(scope, conversationId, new Date(now.getTime() - BROADCAST_REPLY_WINDOW_MS));
  return { outcome: 'recorded', messageId: message._id, conversationId, media, aiRunQueued };
}

/** A text that is one keyword (the business's lists, else the defaults) opts in or out of both categories. */
async function applyConsentKeyword(
  repositories: Pick<InboxRepositories, 'businesses'>,
  scope: BusinessScope,
  recordConsent: NonNullable<InboxIngestDependencies['recordConsent']>,
  text: string,
  who: Pick<KeywordConsent, 'contactId' | 'conversationId' | 'author'>,
): Promise<void> {
  // Most texts are sentences: only a single word is worth reading the business's lists for.
  if (/\s/.test(text.trim()) || text.trim() === '') return;
  const business = await repositories.businesses.findById(scope);
  const status = consentKeywordOf(text, (business as { consent_keywords?: ConsentKeywordLists | null } | null)?.consent_keywords);
  if (status) await recordConsent(scope, { ...who, consent: { marketing: status, utility: status }, source: 'keyword' });
}

/** The message, inserted once: its id derives from the provider's message id. */
async function recordMessage(
  repositories: Pick<InboxRepositories, 'messages'>,
  scope: BusinessScope,
  channelId: string,
  conversationId: string,
  providerMessageId: string,
  content: InboundContent,
  sentAt: Date,
): Promise<MessageEntity> {
  const id = inboxIds.message(channelId, providerMessageId);
  await repositories.messages.insertIfAbsent(scope, {
    _id: id,
    conversation_id: conversationId,
    is_from_customer: true,
    body: content.body,
    content_type: content.content_type,
    status: 'received',
    media_transcription_pending: content.media !== null,
    provider_message_id: providerMessageId,
    created_at: sentAt,
    media: content.media
      ? { provider_media_id: content.media.provider_media_id, mime_type: content.media.mime_type, file_name: content.media.file_name, transcription_status: 'pending' }
      : null,
    ingest: { conversation_applied: false, ai_run_queued: false },
  });
  const message = await repositories.messages.findById(scope, id);
  if (!message) throw new Error(`inbound message ${id} vanished right after it was recorded`);
  return message;
}

/**
 * Counts the message on its conversation once, with its message.received entry in the same update:
 * a redelivery, or a retry after a crash before the message was marked applied, matches nothing.
 * The entry is then recorded (the event, and the customer_message_received topic message). Last
 * message and sort key follow the newest message by time, so a late redelivery of an old message
 * never hides a newer one.
 */
async function applyToConversation(
  scope: BusinessScope,
  dependencies: InboxIngestDependencies,
  message: MessageEntity,
  author: OutboxAuthor,
  content: InboundContent,
  sentAt: Date,
  now: Date,
): Promise<void> {
  const event = outboxEntry('message.received', message.conversation_id, messageTimelineItem(message, author), author, now, inboxIds.customerMessageEvent(message._id));
  const { conversations } = dependencies.repositories;
  const applied = await conversations.applyInboundMessage(scope, message.conversation_id, {
    messageId: message._id,
    sentAt,
    awaitingMedia: message.media_transcription_pending,
    event,
    now,
  });
  if (applied) await dependencies.events.recordQuietly('conversations', scope, message.conversation_id, [withConversationChange(event, applied)]);
  await conversations.showLastMessage(
    scope,
    message.conversation_id,
    { uuid: message._id, body: content.body, content_type: content.content_type, is_from_customer: true, created_at: sentAt },
    now,
  );
}
