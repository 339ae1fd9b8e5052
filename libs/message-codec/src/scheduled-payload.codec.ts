import type { ScheduledPayload as PublicScheduledPayload } from '@cmsg/api-schemas';
import type { ScheduledPayload as ProtoScheduledPayload } from '@cmsg/proto';
import { type Json, presentFields, storedText } from './json-fields';
import { type ProtoSendContent, publicTextToProto } from './send-content.codec';
import { protoTemplateHeaderToPublic, publicTemplateHeaderToProto, storedTemplateHeaderToProto } from './template-header.codec';
import { storedButtonParametersToProto, storedTemplateVariablesToProto } from './template.codec';

/*
 * The human branch's payload of a scheduled message (SPEC 4.1): public (a union by `kind`), RPC
 * (one message with every kind's members) and stored on the schedule document (the public payload
 * as validated when it was scheduled, or the template payload of a reassignment).
 */

/** The validated public payload as the scheduler's RPC carries it. */
export function publicScheduledPayloadToProto(payload: PublicScheduledPayload): ProtoScheduledPayload {
  const empty: ProtoScheduledPayload = {
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
      return { ...empty, template_uuid: payload.template_uuid, variables: payload.variables, header: publicTemplateHeaderToProto(payload.header), button_parameters: payload.button_parameters ?? [] };
    case 'message':
      return {
        ...empty,
        text: payload.text ?? undefined,
        media: payload.media ? { file_uuid: payload.media.file_uuid, transcription: payload.media.transcription ?? undefined } : undefined,
      };
  }
}

/** The RPC payload as the public request body, absent members left out: the scheduler validates it with the public schema again. */
export function protoScheduledPayloadToPublicRequest(payload: ProtoScheduledPayload): Json {
  switch (payload.kind) {
    case 'quick_reply':
      return presentFields({ kind: payload.kind, quick_reply_uuid: payload.quick_reply_uuid });
    case 'template':
      return protoTemplatePayloadToPublic(payload);
    default:
      return presentFields({
        kind: payload.kind,
        text: payload.text,
        media: payload.media ? presentFields({ file_uuid: payload.media.file_uuid, transcription: payload.media.transcription }) : undefined,
      });
  }
}

/** The RPC payload as the public scheduled message record shows it: absent members are null. */
export function protoScheduledPayloadToPublicRecord(payload: ProtoScheduledPayload): Json {
  switch (payload.kind) {
    case 'quick_reply':
      return { kind: payload.kind, quick_reply_uuid: payload.quick_reply_uuid ?? null };
    case 'template':
      return protoTemplatePayloadToPublic(payload);
    default:
      return { kind: payload.kind, text: payload.text ?? null, media: payload.media ? { file_uuid: payload.media.file_uuid, transcription: payload.media.transcription ?? null } : null };
  }
}

function protoTemplatePayloadToPublic(payload: ProtoScheduledPayload): Json {
  return presentFields({
    kind: payload.kind,
    template_uuid: payload.template_uuid,
    variables: payload.variables,
    header: payload.header ? protoTemplateHeaderToPublic(payload.header) : undefined,
    button_parameters: payload.button_parameters,
  });
}

/** The payload stored on a schedule as the RPCs carry it; empty strings count as absent. */
export function storedScheduledPayloadToProto(stored: Json): ProtoScheduledPayload {
  const media = stored['media'] as Json | null | undefined;
  return {
    kind: String(stored['kind']),
    quick_reply_uuid: storedText(stored['quick_reply_uuid']),
    template_uuid: storedText(stored['template_uuid']),
    variables: storedTemplateVariablesToProto(stored['variables']),
    header: stored['header'] ? storedTemplateHeaderToProto(stored['header'] as Json) : undefined,
    button_parameters: storedButtonParametersToProto(stored['button_parameters']),
    text: storedText(stored['text']),
    media: media ? { file_uuid: String(media['file_uuid']), transcription: storedText(media['transcription']) } : undefined,
  };
}

/**
 * The payload as the send that delivers it while the window is open: a quick reply, a template,
 * or a text (a file with the text as its caption). Undefined for a kind this version does not know.
 */
export function protoScheduledPayloadToSendContent(payload: ProtoScheduledPayload): ProtoSendContent | undefined {
  switch (payload.kind) {
    case 'quick_reply':
      return { quick_reply: { uuid: payload.quick_reply_uuid, name: undefined } };
    case 'template':
      return {
        template: {
          template: { uuid: payload.template_uuid, name: undefined, language: undefined },
          variables: payload.variables,
          header: payload.header,
          button_parameters: payload.button_parameters,
        },
      };
    case 'message':
      return publicTextToProto({ text: payload.text, file_uuid: payload.media?.file_uuid, transcription: payload.media?.transcription });
    default:
      return undefined;
  }
}

/** The template fields a schedule stores (template_variables, template_header, template_button_parameters). */
export interface StoredScheduleTemplate {
  template_variables: { index: number; value: string }[] | null | undefined;
  template_header: Json | null | undefined;
  template_button_parameters: { index: number; sub_type: string; value: string }[] | null | undefined;
}

/** A schedule's template fields as a stored template payload (a reassigned schedule that humans fire); no header or button parameters are left out. */
export function storedScheduleTemplateToPayload(templateUuid: string, schedule: StoredScheduleTemplate): Json {
  const buttonParameters = schedule.template_button_parameters ?? [];
  return {
    kind: 'template',
    template_uuid: templateUuid,
    variables: schedule.template_variables ?? [],
    ...(schedule.template_header ? { header: schedule.template_header } : {}),
    ...(buttonParameters.length > 0 ? { button_parameters: buttonParameters } : {}),
  };
}
