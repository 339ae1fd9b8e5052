import type { ScheduleHistoryEntry as ProtoHistoryEntry, ScheduledMessage, ScheduledPayload, TemplateButtonParameter, TemplateHeader, TemplateVariable } from '@cmsg/proto';
import type { ScheduleClaim } from '@cmsg/dal';
import type { StoredSchedule } from '../scheduled-message.repository';

type Json = Record<string, unknown>;

const iso = (value: unknown): string => (value instanceof Date ? value.toISOString() : new Date(String(value)).toISOString());
const text = (value: unknown): string | undefined => (typeof value === 'string' && value.length > 0 ? value : undefined);

/**
 * The status the schedule's claims decided, which wins over the record's mirror of it (a mirror
 * write can be lost to a concurrent write on FerretDB): outcome, else fate.
 */
export function decidedStatus(schedule: Pick<StoredSchedule, 'status' | 'error'>, claims: readonly ScheduleClaim[]): { status: string; error: { code: string; message: string } | null } {
  const outcome = claims.find((claim) => claim.kind === 'outcome')?.data as { status?: string; error?: { code: string; message: string } | null } | undefined;
  if (outcome?.status) return { status: outcome.status, error: outcome.error ?? null };
  const fate = claims.find((claim) => claim.kind === 'fate')?.data?.['decision'];
  if (fate === 'cancel') return { status: 'cancelled', error: null };
  if (fate === 'fire' && schedule.status === 'pending') return { status: 'firing', error: null };
  return { status: schedule.status, error: schedule.error?.code ? { code: schedule.error.code, message: schedule.error.message ?? '' } : null };
}

/** The stored schedule as the scheduler's gRPC answers it (the gateway maps it to the public record). */
export function toScheduledMessage(schedule: StoredSchedule, claims: readonly ScheduleClaim[] = []): ScheduledMessage {
  const decided = decidedStatus(schedule, claims);
  const local = schedule.schedule_local as { date?: string; time?: string; time_zone?: string } | null | undefined;
  return {
    uuid: schedule._id,
    conversation_uuid: schedule.conversation_id,
    executor_kind: schedule.executor_kind,
    status: decided.status,
    schedule_at: iso(schedule.schedule_at),
    schedule_local: local?.date && local.time ? { date: local.date, time: local.time } : undefined,
    time_zone: text(local?.time_zone),
    is_tester: schedule.is_tester,
    cancel_on_customer_reply: schedule.cancel_on_customer_reply,
    ai_employee_uuid: text(schedule.ai_employee_id),
    reason: text(schedule.reason),
    template_uuid: text(schedule.template_id),
    message_kind: text(schedule.message_kind),
    payload: schedule.payload ? toPayload(schedule.payload as Json) : undefined,
    template_variables: variables(schedule.template_variables),
    template_header: schedule.template_header ? toHeader(schedule.template_header as Json) : undefined,
    template_button_parameters: buttonParameters(schedule.template_button_parameters),
    author: { type: schedule.author?.type ?? 'api_token', uuid: text(schedule.author?.uuid) },
    error: decided.error ?? undefined,
    history: ((schedule.history ?? []) as Json[]).map(toHistoryEntry),
    fired_at: firedAt(schedule, claims),
    created_at: iso(schedule.created_at),
    updated_at: iso(schedule.updated_at),
  };
}

/** The record's, else the time the fate `fire` was claimed (a record write lost to a concurrent one on FerretDB). */
function firedAt(schedule: StoredSchedule, claims: readonly ScheduleClaim[]): string | undefined {
  if (schedule.fired_at) return iso(schedule.fired_at);
  const fate = claims.find((claim) => claim.kind === 'fate' && claim.data?.['decision'] === 'fire');
  return fate ? iso(fate.created_at) : undefined;
}

function toPayload(payload: Json): ScheduledPayload {
  const media = payload['media'] as Json | null | undefined;
  return {
    kind: String(payload['kind']),
    quick_reply_uuid: text(payload['quick_reply_uuid']),
    template_uuid: text(payload['template_uuid']),
    variables: variables(payload['variables']),
    header: payload['header'] ? toHeader(payload['header'] as Json) : undefined,
    button_parameters: buttonParameters(payload['button_parameters']),
    text: text(payload['text']),
    media: media ? { file_uuid: String(media['file_uuid']), transcription: text(media['transcription']) } : undefined,
  };
}

function variables(value: unknown): TemplateVariable[] {
  return ((value ?? []) as Json[]).map((variable) => ({ index: Number(variable['index']), value: String(variable['value']) }));
}

function buttonParameters(value: unknown): TemplateButtonParameter[] {
  return ((value ?? []) as Json[]).map((parameter) => ({ index: Number(parameter['index']), sub_type: String(parameter['sub_type']), value: String(parameter['value']) }));
}

function toHeader(header: Json): TemplateHeader {
  return { type: String(header['type']), value: text(header['value']), file_uuid: text(header['file_uuid']), transcription: text(header['transcription']) };
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
