import type { ActionOfType } from '@cmsg/api-schemas';
import { CatalogError } from '@cmsg/errors';
import type { ObjectRef, SendMessageRequest } from '@cmsg/proto';
import type { MessageContentInput, ObjectReference } from './domain-send-content';
import { requiredField } from './required-field';
import { protoTemplateToDomain, publicTemplateToProto } from './template.codec';

/** The content of a SendMessageRequest: exactly one of these members. */
export type ProtoSendContent = Pick<SendMessageRequest, 'text' | 'file' | 'quick_reply' | 'template' | 'quick_reply_or_template'>;

const CONTENT_MEMBERS = ['text', 'file', 'quick_reply', 'template', 'quick_reply_or_template'] as const;

/** A public text send: `text`, or `file_uuid` with `text` as its caption and what the media says. */
export interface PublicTextSend {
  text?: string;
  file_uuid?: string;
  transcription?: string;
}

export type PublicSendAction = ActionOfType<'send_message'> | ActionOfType<'send_quick_reply_or_template'>;

/** A text, or a file with its caption, as RPC content. */
export function publicTextToProto(send: PublicTextSend): ProtoSendContent {
  if (send.file_uuid !== undefined) return { file: { file_uuid: send.file_uuid, caption: send.text, transcription: send.transcription } };
  return { text: { body: send.text ?? '' } };
}

/** An action group's send_message or send_quick_reply_or_template action as RPC content. */
export function publicSendActionToProto(action: PublicSendAction): ProtoSendContent {
  if (action.type === 'send_quick_reply_or_template') {
    return { quick_reply_or_template: { quick_reply: action.quick_reply, template: publicTemplateToProto(action.template, action.template) } };
  }
  if (action.file_uuid !== undefined) return publicTextToProto(action);
  if (action.quick_reply !== undefined) return { quick_reply: action.quick_reply };
  if (action.template !== undefined) return { template: publicTemplateToProto(action.template, action.template) };
  return publicTextToProto(action);
}

/** RPC content as the domain's input: exactly one member, and what each one needs (INVALID_REQUEST otherwise). */
export function protoSendContentToDomain(content: ProtoSendContent): MessageContentInput {
  const present = CONTENT_MEMBERS.filter((member) => content[member] !== undefined);
  if (present.length !== 1) throw new CatalogError('INVALID_REQUEST', 'Exactly one of text, file, quick_reply, template or quick_reply_or_template is required.');
  if (content.text) return { kind: 'text', text: content.text.body };
  if (content.file) {
    const { file_uuid, caption, transcription } = content.file;
    return { kind: 'file', file_uuid, ...(caption !== undefined ? { caption } : {}), ...(transcription !== undefined ? { transcription } : {}) };
  }
  if (content.quick_reply) return { kind: 'quick_reply', quick_reply: protoObjectRefToDomain(content.quick_reply) };
  if (content.template) return { kind: 'template', template: protoTemplateToDomain(content.template) };
  const fallback = requiredField(content.quick_reply_or_template, 'quick_reply_or_template');
  return {
    kind: 'quick_reply_or_template',
    quick_reply: protoObjectRefToDomain(requiredField(fallback.quick_reply, 'quick_reply_or_template.quick_reply')),
    template: protoTemplateToDomain(requiredField(fallback.template, 'quick_reply_or_template.template')),
  };
}

/** An RPC reference by uuid or name as the domain's; empty members are absent. */
export function protoObjectRefToDomain(reference: ObjectRef): ObjectReference {
  return { ...(reference.uuid ? { uuid: reference.uuid } : {}), ...(reference.name ? { name: reference.name } : {}) };
}
