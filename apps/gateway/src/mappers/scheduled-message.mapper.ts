import type { CreateScheduledMessageRequest, CreateScheduledMessageResponse, ScheduledMessageView } from '@cmsg/api-schemas';
import { publicScheduledMessageStatus } from '@cmsg/conversation-commands';
import { protoScheduledPayloadToPublicRecord, protoTemplateHeaderToPublic, publicScheduledPayloadToProto, publicTemplateHeaderToProto } from '@cmsg/message-codec';
import type { Caller, CreatedScheduledMessage, CreateScheduledMessageRequest as ProtoCreateRequest, ScheduleHistoryEntry, ScheduledMessage } from '@cmsg/proto';
import { orNull, publicEnumValue } from './upstream-fields';

const EXECUTOR_KINDS = ['ai_employee', 'human_user'] as const;

/** The validated public body as the scheduler's gRPC request. */
export function toCreateScheduledMessageRequest(caller: Caller, body: CreateScheduledMessageRequest): ProtoCreateRequest {
  const common = {
    caller,
    conversation: body.conversation,
    executor_kind: body.executor_kind,
    scheduled_uuid: body.scheduled_uuid,
    schedule_at: body.schedule_at,
    cancel_on_customer_reply: body.cancel_on_customer_reply,
  };
  if (body.executor_kind === 'ai_employee') {
    return {
      ...common,
      reason: body.reason,
      ai_employee_uuid: body.ai_employee_uuid ?? undefined,
      template_uuid: body.template_uuid ?? undefined,
      message_kind: undefined,
      payload: undefined,
      template_variables: [],
      template_header: undefined,
      template_button_parameters: [],
    };
  }
  return {
    ...common,
    reason: undefined,
    ai_employee_uuid: undefined,
    template_uuid: body.template_uuid,
    message_kind: body.message_kind,
    payload: publicScheduledPayloadToProto(body.payload),
    template_variables: body.template_variables,
    template_header: publicTemplateHeaderToProto(body.template_header),
    template_button_parameters: body.template_button_parameters,
  };
}

export function toCreateScheduledMessageResponse(created: CreatedScheduledMessage): CreateScheduledMessageResponse {
  return {
    data: {
      uuid: created.uuid,
      executor_kind: publicEnumValue(EXECUTOR_KINDS, created.executor_kind, 'executor_kind'),
      schedule_at: created.schedule_at,
      status: publicEnumValue(['pending'], created.status, 'status'),
    },
  };
}

function historyEntry(entry: ScheduleHistoryEntry): ScheduledMessageView['history'][number] {
  return {
    at: entry.at,
    event: entry.event,
    status: publicScheduledMessageStatus(entry.status),
    reason: orNull(entry.reason),
    actor: entry.actor ? { type: entry.actor.type, uuid: orNull(entry.actor.uuid) } : null,
    detail: entry.detail_json ? (JSON.parse(entry.detail_json) as Record<string, unknown>) : null,
  };
}

/** The stored record as the public JSON: the internal `firing` state shows as pending with fired_at set. */
export function toScheduledMessageView(schedule: ScheduledMessage): ScheduledMessageView {
  return {
    uuid: schedule.uuid,
    conversation: { uuid: schedule.conversation_uuid },
    executor_kind: publicEnumValue(EXECUTOR_KINDS, schedule.executor_kind, 'executor_kind'),
    status: publicScheduledMessageStatus(schedule.status),
    schedule_at: schedule.schedule_at,
    schedule_local: schedule.schedule_local ? { date: schedule.schedule_local.date, time: schedule.schedule_local.time, time_zone: schedule.time_zone ?? 'UTC' } : null,
    is_tester: schedule.is_tester,
    cancel_on_customer_reply: schedule.cancel_on_customer_reply,
    ai_employee_uuid: orNull(schedule.ai_employee_uuid),
    reason: orNull(schedule.reason),
    template_uuid: orNull(schedule.template_uuid),
    message_kind: orNull(schedule.message_kind),
    payload: schedule.payload ? protoScheduledPayloadToPublicRecord(schedule.payload) : null,
    template_variables: schedule.template_variables,
    template_header: schedule.template_header ? protoTemplateHeaderToPublic(schedule.template_header) : null,
    template_button_parameters: schedule.template_button_parameters.map((parameter) => ({ index: parameter.index, sub_type: publicEnumValue(['url'], parameter.sub_type, 'sub_type'), value: parameter.value })),
    author: { type: schedule.author?.type ?? 'api_token', uuid: orNull(schedule.author?.uuid) },
    error: schedule.error ? { code: schedule.error.code, message: schedule.error.message } : null,
    history: schedule.history.map(historyEntry),
    fired_at: orNull(schedule.fired_at),
    created_at: schedule.created_at,
    updated_at: schedule.updated_at,
  };
}
