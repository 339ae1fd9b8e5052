import type { ScheduledMessageEntity } from '@cmsg/dal';
import { storedButtonParametersToProto, storedScheduledPayloadToProto, storedTemplateHeaderToProto, storedTemplateVariablesToProto } from '@cmsg/message-codec';
import type { ScheduleHistoryEntry as ProtoHistoryEntry, ScheduledMessage } from '@cmsg/proto';

type Json = Record<string, unknown>;

const iso = (value: unknown): string => (value instanceof Date ? value.toISOString() : new Date(String(value)).toISOString());
const text = (value: unknown): string | undefined => (typeof value === 'string' && value.length > 0 ? value : undefined);

/** The stored schedule as the scheduler's gRPC answers it (the gateway maps it to the public record). */
export function toScheduledMessage(schedule: ScheduledMessageEntity): ScheduledMessage {
  const local = schedule.schedule_local;
  return {
    uuid: schedule._id,
    conversation_uuid: schedule.conversation_id,
    executor_kind: schedule.executor_kind,
    status: schedule.status,
    schedule_at: iso(schedule.schedule_at),
    schedule_local: local?.date && local.time ? { date: local.date, time: local.time } : undefined,
    time_zone: text(local?.time_zone),
    is_tester: schedule.is_tester,
    cancel_on_customer_reply: schedule.cancel_on_customer_reply,
    ai_employee_uuid: text(schedule.ai_employee_id),
    reason: text(schedule.reason),
    template_uuid: text(schedule.template_id),
    message_kind: text(schedule.message_kind),
    payload: schedule.payload ? storedScheduledPayloadToProto(schedule.payload) : undefined,
    template_variables: storedTemplateVariablesToProto(schedule.template_variables),
    template_header: schedule.template_header ? storedTemplateHeaderToProto(schedule.template_header) : undefined,
    template_button_parameters: storedButtonParametersToProto(schedule.template_button_parameters),
    author: { type: schedule.author?.type ?? 'api_token', uuid: text(schedule.author?.uuid) },
    error: schedule.error?.code ? { code: schedule.error.code, message: schedule.error.message ?? '' } : undefined,
    history: ((schedule.history ?? []) as unknown as Json[]).map(toHistoryEntry),
    fired_at: schedule.fired_at ? iso(schedule.fired_at) : undefined,
    created_at: iso(schedule.created_at),
    updated_at: iso(schedule.updated_at),
  };
}

/** Entries written by this service and by owner changes (conversations-domain) alike. */
function toHistoryEntry(entry: Json): ProtoHistoryEntry {
  const actor = entry['actor'] as { type?: string; uuid?: string | null } | null | undefined;
  const known = new Set(['at', 'event', 'status', 'reason', 'actor', 'detail']);
  const extra = Object.fromEntries(Object.entries(entry).filter(([key]) => !known.has(key)));
  const detail = { ...((entry['detail'] as Json | null | undefined) ?? {}), ...extra };
  return {
    at: iso(entry['at']),
    event: String(entry['event'] ?? ''),
    status: String(entry['status'] ?? ''),
    reason: text(entry['reason']),
    actor: actor?.type ? { type: actor.type, uuid: text(actor.uuid) } : undefined,
    detail_json: Object.keys(detail).length > 0 ? JSON.stringify(detail) : undefined,
  };
}
