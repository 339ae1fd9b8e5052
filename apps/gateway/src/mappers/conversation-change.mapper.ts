import { type AddNoteResponse, type InboxStatusChangeResponse, InboxStatusSchema } from '@cmsg/api-schemas';
import type { AddNoteResponse as ProtoAddNoteResponse, InboxStatusResponse } from '@cmsg/proto';
import { publicEnumValue, requiredField } from './upstream-fields';

export function toAddNoteResponse(response: ProtoAddNoteResponse): AddNoteResponse {
  const conversation = requiredField(response.conversation, 'conversation');
  const note = requiredField(response.note, 'note');
  return { conversation: { uuid: conversation.uuid }, note: { uuid: note.uuid, created_at: note.created_at } };
}

export function toInboxStatusChangeResponse(response: InboxStatusResponse): InboxStatusChangeResponse {
  const conversation = requiredField(response.conversation, 'conversation');
  return {
    conversation: { uuid: conversation.uuid },
    inbox_status: publicEnumValue(InboxStatusSchema.options, response.inbox_status, 'inbox_status'),
  };
}
