import type { CreateScheduledMessageRequest, ScheduledPayload, TemplateHeader } from '@cmsg/proto';

type Json = Record<string, unknown>;

/** Drops absent optional members, so the public schema sees exactly what the client sent. */
function present(fields: Json): Json {
  return Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined));
}

function headerOf(header: TemplateHeader | undefined): Json | undefined {
  if (!header) return undefined;
  return present({ type: header.type, value: header.value, file_uuid: header.file_uuid, transcription: header.transcription });
}

function payloadOf(payload: ScheduledPayload | undefined): Json | undefined {
  if (!payload) return undefined;
  switch (payload.kind) {
    case 'quick_reply':
      return present({ kind: payload.kind, quick_reply_uuid: payload.quick_reply_uuid });
    case 'template':
      return present({
        kind: payload.kind,
        template_uuid: payload.template_uuid,
        variables: payload.variables,
        header: headerOf(payload.header),
        button_parameters: payload.button_parameters,
      });
    default:
      return present({ kind: payload.kind, text: payload.text, media: payload.media ? present({ ...payload.media }) : undefined });
  }
}

/**
 * The gRPC request as the public JSON body, validated again by the domain with the same zod
 * schema as the gateway (whoever calls the scheduler directly gets the same rules).
 */
export function createScheduleBodyOf(request: CreateScheduledMessageRequest): Json {
  const common = present({
    executor_kind: request.executor_kind,
    conversation: request.conversation ? present({ ...request.conversation }) : undefined,
    scheduled_uuid: request.scheduled_uuid,
    schedule_at: request.schedule_at,
    cancel_on_customer_reply: request.cancel_on_customer_reply,
  });
  if (request.executor_kind === 'ai_employee') {
    return { ...common, ...present({ reason: request.reason, ai_employee_uuid: request.ai_employee_uuid, template_uuid: request.template_uuid }) };
  }
  return {
    ...common,
    ...present({
      message_kind: request.message_kind,
      payload: payloadOf(request.payload),
      template_uuid: request.template_uuid,
      template_variables: request.template_variables,
      template_header: headerOf(request.template_header),
      template_button_parameters: request.template_button_parameters,
    }),
  };
}
