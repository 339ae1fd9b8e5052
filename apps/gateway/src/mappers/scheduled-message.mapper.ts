import type { CreateScheduledMessageRequest, CreateScheduledMessageResponse, ScheduledMessageView, ScheduledPayload as PublicPayload } from '@cmsg/api-schemas';
import { publicScheduledMessageStatus } from '@cmsg/conversation-commands';
import type {
  Caller,
  CreatedScheduledMessage,
  CreateScheduledMessageRequest as ProtoCreateRequest,
  ScheduleHistoryEntry,
  ScheduledMessage,
  ScheduledPayload,
  TemplateHeader,
} from '@cmsg/proto';
import { orNull, publicEnumValue } from './upstream-fields';

const EXECUTOR_KINDS = ['ai_employee', 'human_user'] as const;

type PublicHeader = NonNullable<Extract<PublicPayload, { kind: 'template' }>['header']>;

function toProtoHeader(header: PublicHeader | undefined): TemplateHeader | undefined {
  if (!header) return undefined;
  return header.type === 'text'
    ? { type: header.type, value: header.value, file_uuid: undefined, transcription: undefined }
    : { type: header.type, value: undefined, file_uuid: header.file_uuid, transcription: header.transcription };
}

function toProtoPayload(payload: PublicPayload): ScheduledPayload {
  const empty: ScheduledPayload = {
    kind: payload.kind,
    quick_reply_uuid: undefined,
    template_uuid: undefined,
    variables: [],
    header: undefined,
    button_parameters: [],
    text: undefined,
    media: undefined,
  };
  switch (payload.kind) {
    case 'quick_reply':
      return { ...empty, quick_reply_uuid: payload.quick_reply_uuid };
    case 'template':
      return { ...empty, template_uuid: payload.template_uuid, variables: payload.variables, header: toProtoHeader(payload.header), button_parameters: payload.button_parameters ?? [] };
    case 'message':
      return {
        ...empty,
        text: payload.text ?? undefined,
        media: payload.media ? { file_uuid: payload.media.file_uuid, transcription: payload.media.transcription ?? undefined } : undefined,
      };
  }
}

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
    payload: toProtoPayload(body.payload),
    template_variables: body.template_variables,
    template_header: toProtoHeader(body.template_header),
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

function present(fields: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined));
}

function headerJson(header: TemplateHeader | undefined): Record<string, unknown> | null {
  return header ? present({ type: header.type, value: header.value, file_uuid: header.file_uuid, transcription: header.transcription }) : null;
}

function payloadJson(payload: ScheduledPayload | undefined): Record<string, unknown> | null {
  if (!payload) return null;
  switch (payload.kind) {
    case 'quick_reply':
      return { kind: payload.kind, quick_reply_uuid: payload.quick_reply_uuid ?? null };
    case 'template':
      return present({ kind: payload.kind, template_uuid: payload.template_uuid, variables: payload.variables, header: headerJson(payload.header) ?? undefined, button_parameters: payload.button_parameters });
    default:
      return { kind: payload.kind, text: payload.text ?? null, media: payload.media ? { file_uuid: payload.media.file_uuid, transcription: payload.media.transcription ?? null } : null };
  }
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
    payload: payloadJson(schedule.payload),
    template_variables: schedule.template_variables,
    template_header: headerJson(schedule.template_header),
    template_button_parameters: schedule.template_button_parameters.map((parameter) => ({ index: parameter.index, sub_type: publicEnumValue(['url'], parameter.sub_type, 'sub_type'), value: parameter.value })),
    author: { type: schedule.author?.type ?? 'api_token', uuid: orNull(schedule.author?.uuid) },
    error: schedule.error ? { code: schedule.error.code, message: schedule.error.message } : null,
    history: schedule.history.map(historyEntry),
    fired_at: orNull(schedule.fired_at),
    created_at: schedule.created_at,
    updated_at: schedule.updated_at,
  };
}
