import type { MessageEntity, OutboxAuthor, StoredTimelineEvent } from '@cmsg/dal';
import { type MessageTimelineItem, type NoteTimelineItem, customerAuthor, messageTimelineItem, noteTimelineItem } from '@cmsg/events';
import type { ConversationTimelineItem, TimelineAuthor } from '@cmsg/proto';
import type { TimelineRow } from './timeline-merge';

/** Names of the authors of one page, loaded once for the page (timeline-authors.ts). */
export interface TimelineAuthorNames {
  /** The conversation's customer: the contact and the name the conversation shows for it. */
  customer: { uuid: string; name: string | null };
  aiEmployee(uuid: string): string | undefined;
}

/** Before events existed, an inbox status change was stored with this kind (and `pending_reason` for the public `reason`). */
export const LEGACY_INBOX_STATUS_KIND = 'inbox_status_changed';

/**
 * A timeline row as the item of CONTRACT 9.1, in the gRPC reply's shape. Messages and notes are
 * built by @cmsg/events' builders, the ones their events' `data` come from, so both agree.
 */
export function timelineItemOf(row: TimelineRow, names: TimelineAuthorNames): ConversationTimelineItem {
  if (row.source === 'message') return messageReplyItem(messageTimelineItem(row.row, messageAuthor(row.row, names)));
  const entry = row.row;
  const author = storedAuthor(entry.author, names);
  if (entry.kind === 'note') return noteReplyItem(noteTimelineItem({ id: entry._id, body: entry.body ?? '', createdAt: entry.created_at }, author));
  return { uuid: entry._id, kind: 'event', created_at: entry.created_at.toISOString(), author: replyAuthor(author), event: eventOf(entry) };
}

function messageAuthor(message: MessageEntity, names: TimelineAuthorNames): OutboxAuthor {
  return message.is_from_customer ? customerAuthor(names.customer.uuid, names.customer.name) : storedAuthor(message.author, names);
}

/** An event row's event and data; an inbox status change stored before events existed is read as one. */
function eventOf(entry: StoredTimelineEvent): NonNullable<ConversationTimelineItem['event']> {
  const data = (entry.data ?? {}) as Record<string, unknown>;
  if (entry.kind !== LEGACY_INBOX_STATUS_KIND) return { event: entry.event_type ?? '', data };
  return { event: LEGACY_INBOX_STATUS_KIND, data: { from: data['from'], to: data['to'], reason: data['reason'] ?? data['pending_reason'] ?? null } };
}

/** A stored author with its name: the one stored with it, else the AI employee's; tokens and the system have none. */
function storedAuthor(author: { type: string; uuid?: string | null; name?: string | null } | null | undefined, names: TimelineAuthorNames): OutboxAuthor {
  if (!author) return { type: 'system', uuid: null, name: null };
  const uuid = author.uuid ?? null;
  const name = author.name ?? (author.type === 'ai_employee' && uuid ? names.aiEmployee(uuid) : undefined) ?? null;
  return { type: author.type, uuid, name };
}

// The gRPC reply carries a null as an absent field and a message's own fields under `message`;
// the gateway maps it back (apps/gateway/src/mappers/conversation-timeline.mapper.ts).

function messageReplyItem({ uuid, kind, created_at, author, media, ...message }: MessageTimelineItem): ConversationTimelineItem {
  return {
    uuid,
    kind,
    created_at,
    author: replyAuthor(author),
    message: {
      direction: message.direction,
      content_type: message.content_type,
      body: message.body ?? undefined,
      media: media ? { file_uuid: media.file_uuid ?? undefined, mime_type: media.mime_type, transcription: media.transcription ?? undefined } : undefined,
      status: message.status,
      error: message.error ? { code: message.error.code, message: message.error.message, provider_code: message.error.provider_code ?? undefined } : undefined,
      pricing: message.pricing
        ? { category: message.pricing.category ?? undefined, billable: message.pricing.billable ?? undefined, pricing_model: message.pricing.pricing_model ?? undefined }
        : undefined,
    },
  };
}

function noteReplyItem({ uuid, kind, created_at, author, note }: NoteTimelineItem): ConversationTimelineItem {
  return { uuid, kind, created_at, author: replyAuthor(author), note: { note } };
}

function replyAuthor(author: OutboxAuthor): TimelineAuthor {
  return { type: author.type, uuid: author.uuid ?? undefined, name: author.name ?? undefined };
}
