import {
  type ConversationTimelineResponse,
  type TimelineAuthor,
  TimelineAuthorSchema,
  TimelineEventItemSchema,
  type TimelineItem,
  TimelineMessageItemSchema,
  TimelineMessageStatusSchema,
} from '@cmsg/api-schemas';
import { ERROR_CODES } from '@cmsg/errors';
import type { ConversationTimelineItem, GetConversationTimelineResponse, TimelineAuthor as ProtoTimelineAuthor } from '@cmsg/proto';
import { mapOrNull, orNull, publicEnumValue, requiredField } from './upstream-fields';

export function toTimelineAuthor(author: ProtoTimelineAuthor): TimelineAuthor {
  return { type: publicEnumValue(TimelineAuthorSchema.shape.type.options, author.type, 'author.type'), uuid: orNull(author.uuid), name: orNull(author.name) };
}

/** One item of CONTRACT 9.1; an event's data is checked against its event's schema (anything else is an upstream bug, a 500). */
export function toTimelineItem(item: ConversationTimelineItem): TimelineItem {
  const base = { uuid: item.uuid, created_at: item.created_at, author: toTimelineAuthor(requiredField(item.author, 'items[].author')) };
  switch (item.kind) {
    case 'message': {
      const message = requiredField(item.message, 'items[].message');
      return {
        ...base,
        kind: 'message',
        direction: publicEnumValue(TimelineMessageItemSchema.shape.direction.options, message.direction, 'items[].direction'),
        content_type: message.content_type,
        body: orNull(message.body),
        media: mapOrNull(message.media, (media) => ({ file_uuid: orNull(media.file_uuid), mime_type: media.mime_type, transcription: orNull(media.transcription) })),
        status: publicEnumValue(TimelineMessageStatusSchema.options, message.status, 'items[].status'),
        error: mapOrNull(message.error, (error) => ({
          code: publicEnumValue(ERROR_CODES, error.code, 'items[].error.code'),
          message: error.message,
          provider_code: orNull(error.provider_code),
        })),
        pricing: mapOrNull(message.pricing, (pricing) => ({ category: orNull(pricing.category), billable: orNull(pricing.billable), pricing_model: orNull(pricing.pricing_model) })),
      };
    }
    case 'note':
      return { ...base, kind: 'note', note: requiredField(item.note, 'items[].note').note };
    case 'event': {
      const event = requiredField(item.event, 'items[].event');
      return TimelineEventItemSchema.parse({ ...base, kind: 'event', event: event.event, data: event.data ?? {} });
    }
    default:
      throw new Error(`Upstream response has items[].kind = ${JSON.stringify(item.kind)}, not one of message|note|event`);
  }
}

export function toConversationTimelineResponse(response: GetConversationTimelineResponse): ConversationTimelineResponse {
  return { items: response.items.map(toTimelineItem), has_more: response.has_more, next_cursor: response.next_cursor };
}
