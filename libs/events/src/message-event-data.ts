import type { OutboxAuthor } from '@cmsg/dal';

/** The stored fields a message's timeline item is built from (a stored message, or one about to be). */
export interface MessageItemSource {
  _id: string;
  is_from_customer: boolean;
  body?: string | null;
  content_type: string;
  status: string;
  created_at: Date;
  error?: { code?: string | null; message?: string | null } | null;
  /** Inbound media: where its bytes are once stored. */
  media?: { file_uuid?: string | null; mime_type: string } | null;
  /** Outbound media: the upload it sent. */
  outbound_file?: { file_uuid: string; mime_type: string } | null;
  transcription?: string | null;
}

/** Outbound statuses as the timeline shows them: a send under way is queued, a simulated one sent. */
const PUBLIC_OUTBOUND_STATUS: Record<string, string> = { sending: 'queued', simulated: 'sent', sent: 'sent', delivered: 'delivered', read: 'read', failed: 'failed' };

export function publicMessageStatus(message: Pick<MessageItemSource, 'is_from_customer' | 'status'>): string {
  return message.is_from_customer ? 'received' : (PUBLIC_OUTBOUND_STATUS[message.status] ?? message.status);
}

/**
 * A message as a timeline item (CONTRACT 9.1): the `data` of message.received, message.sent and
 * message.status_updated. `uuid` is the message uuid; `error` is null unless it failed.
 */
export function messageTimelineItem(message: MessageItemSource, author: OutboxAuthor): Record<string, unknown> {
  const status = publicMessageStatus(message);
  return {
    uuid: message._id,
    kind: 'message',
    created_at: message.created_at.toISOString(),
    author,
    direction: message.is_from_customer ? 'inbound' : 'outbound',
    content_type: message.content_type,
    body: message.body ? message.body : null,
    media: mediaOf(message),
    status,
    error: status === 'failed' ? { code: message.error?.code || 'SEND_FAILED', message: message.error?.message || 'The message could not be sent.' } : null,
  };
}

/** A message's media as the timeline shows it (as the timeline reader does: libs/conversations-domain/src/timeline). */
function mediaOf(message: MessageItemSource): Record<string, unknown> | null {
  const transcription = message.transcription ?? null;
  if (message.media) return { file_uuid: message.media.file_uuid ?? null, mime_type: message.media.mime_type, transcription };
  if (message.outbound_file) return { file_uuid: message.outbound_file.file_uuid, mime_type: message.outbound_file.mime_type, transcription };
  return null;
}

/** The author of an inbound message: the customer, by contact. */
export function customerAuthor(contactId: string, name: string | null): OutboxAuthor {
  return { type: 'customer', uuid: contactId, name };
}
