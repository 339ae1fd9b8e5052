import { webhookTimestampToDate } from '@cmsg/chat-platform';
import { businessScope } from '@cmsg/dal';
import { type OutboxRecorder, SYSTEM_AUTHOR, messageTimelineItem, outboxEntry } from '@cmsg/events';
import type { BroadcastProgress, InboxRepositories, MessageAuthorLookup, RecordConsent } from './ports';
import type { InboundStatusRecord } from './chat-inbound-record';
import { deliveryFailureOf, deliveryPricingOf, isDeliveryStatus, statusesReplacedBy } from './delivery-status';

/** What a delivery status reads and writes, and whom it tells. */
export interface DeliveryStatusPorts {
  repositories: {
    channels: InboxRepositories['channels'];
    messages: Pick<InboxRepositories['messages'], 'findOutboundByProviderId' | 'applyDeliveryStatus'>;
    conversations: Pick<InboxRepositories['conversations'], 'findById'>;
  };
  messageAuthors: MessageAuthorLookup;
  /** Records the message.status_updated entry (docs/events.md). */
  events: OutboxRecorder;
  now: () => Date;
  /** A late 131050 failure states the customer stopped marketing messages. */
  recordConsent?: RecordConsent;
  broadcastProgress?: BroadcastProgress;
}

export type StatusIngestOutcome = 'updated' | 'already_further' | 'unknown_status' | 'unknown_channel' | 'unknown_message';

/** A status may arrive before the send that produced its id was settled; it waits this many attempts. */
export const STATUS_ATTEMPTS_BEFORE_GIVING_UP = 3;

export class OutboundMessageNotYetRecorded extends Error {
  constructor(providerMessageId: string) {
    super(`no outbound message with provider id ${providerMessageId} yet; the status is retried`);
    this.name = 'OutboundMessageNotYetRecorded';
  }
}

/**
 * A delivery status (sent, delivered, read, failed) on the outbound message it names, with its
 * message.status_updated entry (the message's timeline item with the new status) in the same update.
 * A failure's provider code is mapped as a send's (CONTRACT 10.3); the pricing it carries is kept.
 */
export async function ingestDeliveryStatus(ports: DeliveryStatusPorts, record: InboundStatusRecord, attempt: number): Promise<StatusIngestOutcome> {
  const { repositories, events, recordConsent, broadcastProgress } = ports;
  const now = ports.now();
  const status = record.status.status;
  if (!isDeliveryStatus(status)) return 'unknown_status';
  const channel = await repositories.channels.findByPhoneNumberIdAcrossBusinesses(record.phone_number_id);
  if (!channel) return 'unknown_channel';
  const scope = businessScope(channel.business_id);
  const message = await repositories.messages.findOutboundByProviderId(scope, record.status.id);
  if (!message) {
    if (attempt < STATUS_ATTEMPTS_BEFORE_GIVING_UP) throw new OutboundMessageNotYetRecorded(record.status.id);
    return 'unknown_message';
  }
  const reportedAt = webhookTimestampToDate(record.status.timestamp);
  const error = status === 'failed' ? deliveryFailureOf(record.status) : null;
  const pricing = deliveryPricingOf(record.status);
  const author = await ports.messageAuthors(scope, message.author);
  const item = messageTimelineItem({ ...message, status, error: error ?? message.error, pricing: pricing ?? message.pricing }, author);
  const event = outboxEntry('message.status_updated', message.conversation_id, item, author, now);
  const updated = await repositories.messages.applyDeliveryStatus(
    scope,
    message._id,
    { status, replaces: statusesReplacedBy(status), at: Number.isFinite(reportedAt.getTime()) ? reportedAt : now, error, pricing },
    event,
  );
  if (!updated) return 'already_further';
  await events.recordQuietly('messages', scope, message._id, [event]);
  if (status === 'delivered' || status === 'read') await broadcastProgress?.delivered(scope, message._id, status);
  // A late failure with 131050: the customer stopped marketing messages (CONTRACT 10.2, source provider).
  if (error?.code === 'CONTACT_OPTED_OUT' && error.provider_code === '131050' && recordConsent) {
    const conversation = await repositories.conversations.findById(scope, message.conversation_id);
    if (conversation) await recordConsent(scope, { contactId: conversation.contact_id, conversationId: conversation._id, consent: { marketing: 'opted_out' }, source: 'provider', author: SYSTEM_AUTHOR });
  }
  return 'updated';
}
