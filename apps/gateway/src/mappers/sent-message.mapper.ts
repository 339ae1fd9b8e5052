import { type SendMessageResponse, type SendQuickReplyResponse, type SentMessage, SentMessageStatusSchema } from '@cmsg/api-schemas';
import type { SendMessageResponse as ProtoSendMessageResponse, SentMessage as ProtoSentMessage } from '@cmsg/proto';
import { publicEnumValue, requiredField } from './upstream-fields';

export function toSentMessage(message: ProtoSentMessage): SentMessage {
  return { uuid: message.uuid, status: publicEnumValue(SentMessageStatusSchema.options, message.status, 'message.status'), created_at: message.created_at };
}

export function toSendMessageResponse(response: ProtoSendMessageResponse): SendMessageResponse {
  return { message: toSentMessage(requiredField(response.message, 'message')) };
}

export function toSendQuickReplyResponse(response: ProtoSendMessageResponse): SendQuickReplyResponse {
  return { message: toSentMessage(requiredField(response.message, 'message')), messages: response.messages.map(toSentMessage) };
}
