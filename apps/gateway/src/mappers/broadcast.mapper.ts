import {
  BROADCAST_PAUSE_REASONS,
  BROADCAST_RECIPIENT_STATUSES,
  BROADCAST_SKIP_REASONS,
  BROADCAST_STATUSES,
  type BroadcastAudience,
  type BroadcastBody,
  type BroadcastCounts,
  type BroadcastPreviewBody,
  type BroadcastRecipientBody,
  type CreateBroadcastRequest,
  TEMPLATE_CATEGORIES,
} from '@cmsg/api-schemas';
import { ERROR_CODES } from '@cmsg/errors';
import { publicTemplateToProto } from '@cmsg/message-codec';
import type {
  Broadcast,
  BroadcastCounts as ProtoBroadcastCounts,
  BroadcastPreview,
  BroadcastRecipient,
  BroadcastAudience as ProtoBroadcastAudience,
  Caller,
  CreateBroadcastRequest as ProtoCreateBroadcastRequest,
} from '@cmsg/proto';
import { mapOrNull, orNull, publicEnumValue, requiredField } from './upstream-fields';

/** POST /broadcasts and /broadcasts/preview bodies as the RPC's request; the filter travels as a Struct, as the contact search sends it. */
export function toCreateBroadcastRequest(caller: Caller, body: CreateBroadcastRequest): ProtoCreateBroadcastRequest {
  return {
    caller,
    name: body.name,
    channel: body.channel,
    ...publicTemplateToProto(body.template, body),
    audience: toProtoAudience(body.audience),
    send_at: body.send_at,
    max_per_second: body.max_per_second,
    send_window: body.send_window && { from: body.send_window.from, to: body.send_window.to },
  };
}

function toProtoAudience(audience: BroadcastAudience): ProtoBroadcastAudience {
  if ('filter' in audience) return { filter: audience.filter };
  if ('contacts' in audience) return { contacts: { uuids: audience.contacts } };
  return { file_uuid: audience.file_uuid };
}

function toCounts(counts: ProtoBroadcastCounts | undefined): BroadcastCounts {
  const { total, pending, sent, delivered, read, replied, failed, skipped, unknown } = requiredField(counts, 'counts');
  return { total, pending, sent, delivered, read, replied, failed, skipped, unknown };
}

/** A map keyed by skip reason; a key outside the public reasons is an upstream bug (500). */
function toSkippedByReason(skipped: { [reason: string]: number }): BroadcastBody['skipped_by_reason'] {
  return Object.fromEntries(Object.entries(skipped).map(([reason, count]) => [publicEnumValue(BROADCAST_SKIP_REASONS, reason, 'skipped_by_reason'), count]));
}

export function toBroadcast(broadcast: Broadcast): BroadcastBody {
  const template = requiredField(broadcast.template, 'template');
  const rate = requiredField(broadcast.rate, 'rate');
  return {
    uuid: broadcast.uuid,
    name: broadcast.name,
    channel: broadcast.channel,
    template: { uuid: template.uuid, name: template.name, language: template.language, category: publicEnumValue(TEMPLATE_CATEGORIES, template.category, 'template.category') },
    status: publicEnumValue(BROADCAST_STATUSES, broadcast.status, 'status'),
    pause_reason: mapOrNull(broadcast.pause_reason, (reason) => publicEnumValue(BROADCAST_PAUSE_REASONS, reason, 'pause_reason')),
    send_at: broadcast.send_at,
    started_at: orNull(broadcast.started_at),
    finished_at: orNull(broadcast.finished_at),
    counts: toCounts(broadcast.counts),
    skipped_by_reason: toSkippedByReason(broadcast.skipped_by_reason),
    failed_by_code: { ...broadcast.failed_by_code },
    rate: { max_per_second: rate.max_per_second, current_per_second: rate.current_per_second },
    send_window: mapOrNull(broadcast.send_window, (window) => ({ from: window.from, to: window.to })),
    created_at: broadcast.created_at,
    error: mapOrNull(broadcast.error, (error) => ({ code: error.code, message: error.message })),
  };
}

export function toBroadcastPreview(preview: BroadcastPreview): BroadcastPreviewBody {
  return {
    total: preview.total,
    skipped_by_reason: toSkippedByReason(preview.skipped_by_reason),
    messaging_limit_remaining: orNull(preview.messaging_limit_remaining),
    estimated_seconds: preview.estimated_seconds,
  };
}

export function toBroadcastRecipient(recipient: BroadcastRecipient): BroadcastRecipientBody {
  return {
    contact: { uuid: orNull(recipient.contact?.uuid), phone: orNull(recipient.contact?.phone) },
    status: publicEnumValue(BROADCAST_RECIPIENT_STATUSES, recipient.status, 'items[].status'),
    reason: mapOrNull(recipient.reason, (reason) => publicEnumValue(BROADCAST_SKIP_REASONS, reason, 'items[].reason')),
    error: mapOrNull(recipient.error, (error) => ({
      code: publicEnumValue(ERROR_CODES, error.code, 'items[].error.code'),
      message: error.message,
      provider_code: orNull(recipient.provider_code),
    })),
    message: mapOrNull(recipient.message_uuid, (uuid) => ({ uuid })),
    sent_at: orNull(recipient.sent_at),
  };
}
