import { isErrorCode } from '@cmsg/errors';
import type { MessageEntity, StoredTimelineEvent } from '@cmsg/dal';
import type { ConversationTimelineItem, TimelineAuthor } from '@cmsg/proto';
import type { TimelineRow } from './timeline-merge';

/** Names of the authors of one page, loaded once for the page (timeline-authors.ts). */
export interface TimelineAuthorNames {
  /** The conversation's customer: the contact and the name the conversation shows for it. */
  customer: { uuid: string; name: string | null };
  aiEmployee(uuid: string): string | undefined;
}

/** An outbound message's state as stored, as the timeline shows it. */
const OUTBOUND_STATUSES: Record<string, string> = {
  sending: 'queued',
  sent: 'sent',
  // A tester conversation's messages are simulated: sent as far as the conversation can tell.
  simulated: 'sent',
  delivered: 'delivered',
  read: 'read',
  failed: 'failed',
};

/** Before events existed, an inbox status change was stored with this kind (and `pending_reason` for the public `reason`). */
export const LEGACY_INBOX_STATUS_KIND = 'inbox_status_changed';

/** A timeline row as the item of CONTRACT 9.1. */
export function timelineItemOf(row: TimelineRow, names: TimelineAuthorNames): ConversationTimelineItem {
  return row.source === 'message' ? messageItemOf(row.row, names) : timelineEventItemOf(row.row, names);
}

export function messageItemOf(message: MessageEntity, names: TimelineAuthorNames): ConversationTimelineItem {
  const failed = !message.is_from_customer && message.status === 'failed';
  const error = message.error;
  return {
    uuid: message._id,
    kind: 'message',
    created_at: message.created_at.toISOString(),
    author: message.is_from_customer ? { type: 'customer', uuid: names.customer.uuid, name: names.customer.name ?? undefined } : authorOf(message.author, names),
    message: {
      direction: message.is_from_customer ? 'inbound' : 'outbound',
      content_type: message.content_type,
      body: message.body || undefined,
      media: mediaOf(message),
      status: message.is_from_customer ? 'received' : (OUTBOUND_STATUSES[message.status] ?? message.status),
      error: failed ? { code: isErrorCode(error?.code) ? error.code : 'SEND_FAILED', message: error?.message ?? '' } : undefined,
    },
  };
}

function mediaOf(message: MessageEntity): NonNullable<ConversationTimelineItem['message']>['media'] {
  const transcription = message.transcription ?? undefined;
  if (message.media) return { file_uuid: message.media.file_uuid ?? undefined, mime_type: message.media.mime_type, transcription };
  if (message.outbound_file) return { file_uuid: message.outbound_file.file_uuid, mime_type: message.outbound_file.mime_type, transcription };
  return undefined;
}

export function timelineEventItemOf(entry: StoredTimelineEvent, names: TimelineAuthorNames): ConversationTimelineItem {
  const base = { uuid: entry._id, created_at: entry.created_at.toISOString(), author: authorOf(entry.author, names) };
  if (entry.kind === 'note') return { ...base, kind: 'note', note: { note: entry.body ?? '' } };
  const data = (entry.data ?? {}) as Record<string, unknown>;
  if (entry.kind === LEGACY_INBOX_STATUS_KIND) {
    return { ...base, kind: 'event', event: { event: LEGACY_INBOX_STATUS_KIND, data: { from: data['from'], to: data['to'], reason: data['reason'] ?? data['pending_reason'] ?? null } } };
  }
  return { ...base, kind: 'event', event: { event: entry.event_type ?? '', data } };
}

/** A stored author with its name: the one stored with it, else the AI employee's; tokens and the system have none. */
function authorOf(author: { type: string; uuid?: string | null; name?: string | null } | null | undefined, names: TimelineAuthorNames): TimelineAuthor {
  if (!author) return { type: 'system', uuid: undefined, name: undefined };
  const uuid = author.uuid ?? undefined;
  const name = author.name ?? (author.type === 'ai_employee' && uuid ? names.aiEmployee(uuid) : undefined);
  return { type: author.type, uuid, name };
}
