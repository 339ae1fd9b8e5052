import type { OutboxAuthor } from '@cmsg/dal';
import { ERROR_CATALOG, type ErrorCode, isErrorCode } from '@cmsg/errors';

/**
 * The timeline items of CONTRACT 9.1, built here once: the `data` of the message and note events
 * (CONTRACT 9.2) and the items GET /conversation/timeline shows (libs/conversations-domain/src/timeline).
 */

/** The stored fields a message's timeline item is built from: a stored message (MessageEntity), or one about to be. */
export interface MessageItemSource {
  _id: string;
  is_from_customer: boolean;
  body?: string | null;
  content_type: string;
  status: string;
  created_at: Date;
  error?: { code?: string | null; message?: string | null; provider_code?: string | null } | null;
  /** Outbound: the status webhook's pricing, once one carried it. */
  pricing?: { billable?: boolean | null; pricing_model?: string | null; category?: string | null } | null;
  /** Inbound media: where its bytes are once stored. */
  media?: { file_uuid?: string | null; mime_type: string } | null;
  /** Outbound media: the upload it sent. */
  outbound_file?: { file_uuid: string; mime_type: string } | null;
  transcription?: string | null;
}

/** A message as a timeline item (TimelineMessageItem in libs/api-schemas). */
export type MessageTimelineItem = {
  uuid: string;
  kind: 'message';
  created_at: string;
  author: OutboxAuthor;
  direction: 'inbound' | 'outbound';
  content_type: string;
  body: string | null;
  media: { file_uuid: string | null; mime_type: string; transcription: string | null } | null;
  status: string;
  error: { code: ErrorCode; message: string; provider_code: string | null } | null;
  /** Outbound only (null inbound, and until a status webhook carries it). */
  pricing: { category: string | null; billable: boolean | null; pricing_model: string | null } | null;
};

/** A note as a timeline item (TimelineNoteItem in libs/api-schemas). */
export type NoteTimelineItem = { uuid: string; kind: 'note'; created_at: string; author: OutboxAuthor; note: string };

/** Outbound statuses as the timeline shows them: a send under way is queued, a simulated one (a tester conversation's) sent. */
const PUBLIC_OUTBOUND_STATUS: Record<string, string> = { sending: 'queued', simulated: 'sent', sent: 'sent', delivered: 'delivered', read: 'read', failed: 'failed' };

export function publicMessageStatus(message: Pick<MessageItemSource, 'is_from_customer' | 'status'>): string {
  return message.is_from_customer ? 'received' : (PUBLIC_OUTBOUND_STATUS[message.status] ?? message.status);
}

/**
 * A message as a timeline item: the `data` of message.received, message.sent and
 * message.status_updated. `uuid` is the message uuid; `error` is null unless it failed.
 */
export function messageTimelineItem(message: MessageItemSource, author: OutboxAuthor): MessageTimelineItem {
  const status = publicMessageStatus(message);
  return {
    uuid: message._id,
    kind: 'message',
    created_at: message.created_at.toISOString(),
    author,
    direction: message.is_from_customer ? 'inbound' : 'outbound',
    content_type: message.content_type,
    body: message.body || null,
    media: mediaOf(message),
    status,
    error: status === 'failed' ? failureOf(message.error) : null,
    pricing: message.is_from_customer || !message.pricing ? null : pricingOf(message.pricing),
  };
}

/** A note as a timeline item: the `data` of note.created. */
export function noteTimelineItem(note: { id: string; body: string; createdAt: Date }, author: OutboxAuthor): NoteTimelineItem {
  return { uuid: note.id, kind: 'note', created_at: note.createdAt.toISOString(), author, note: note.body };
}

function mediaOf(message: MessageItemSource): MessageTimelineItem['media'] {
  const transcription = message.transcription ?? null;
  if (message.media) return { file_uuid: message.media.file_uuid ?? null, mime_type: message.media.mime_type, transcription };
  if (message.outbound_file) return { file_uuid: message.outbound_file.file_uuid, mime_type: message.outbound_file.mime_type, transcription };
  return null;
}

/**
 * Why a send failed, as an error of the catalog (the public `code` is one of it): a code it does
 * not know is SEND_FAILED, and a failure stored without its text says the catalog's; provider_code
 * is the chat platform's code (CONTRACT 10.3), null when the failure had none or predates it.
 */
function failureOf(error: MessageItemSource['error']): NonNullable<MessageTimelineItem['error']> {
  const code = isErrorCode(error?.code) ? error.code : 'SEND_FAILED';
  return { code, message: error?.message || ERROR_CATALOG[code].message, provider_code: error?.provider_code ?? null };
}

function pricingOf(pricing: NonNullable<MessageItemSource['pricing']>): NonNullable<MessageTimelineItem['pricing']> {
  return { category: pricing.category ?? null, billable: pricing.billable ?? null, pricing_model: pricing.pricing_model ?? null };
}
