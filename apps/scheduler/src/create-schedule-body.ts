import { protoScheduledPayloadToPublicRequest, protoTemplateHeaderToPublic } from '@cmsg/message-codec';
import type { CreateScheduledMessageRequest } from '@cmsg/proto';

type Json = Record<string, unknown>;

/** Drops absent optional members, so the public schema sees exactly what the client sent. */
function present(fields: Json): Json {
  return Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined));
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
      payload: request.payload ? protoScheduledPayloadToPublicRequest(request.payload) : undefined,
      template_uuid: request.template_uuid,
      template_variables: request.template_variables,
      template_header: request.template_header ? protoTemplateHeaderToPublic(request.template_header) : undefined,
      template_button_parameters: request.template_button_parameters,
    }),
  };
}
