/** The fields of a message that a conversation's derived state depends on. */
export interface MessageFacts {
  _id: string;
  is_from_customer: boolean;
  body: string;
  content_type: string;
  media_transcription_pending: boolean;
  created_at: Date;
}

export interface ConversationDerivedState {
  last_message: { uuid: string; body: string; content_type: string; is_from_customer: boolean; created_at: Date } | null;
  last_inbound_at: Date | null;
  unread_count: number;
  media_awaiting_transcription: number;
  awaiting_media_message_ids: string[];
  sort_at: Date;
}

/**
 * What a conversation stores about its messages so that lists and the status snapshot need no
 * join: the newest message, the newest customer message (the 24 h window), the customer messages
 * since the last reply, and the inbound media still awaiting transcription. Messages with the same
 * time are ordered by uuid.
 */
export function deriveConversationState(messages: readonly MessageFacts[], conversationCreatedAt: Date): ConversationDerivedState {
  const ordered = [...messages].sort((a, b) => a.created_at.getTime() - b.created_at.getTime() || (a._id < b._id ? -1 : a._id > b._id ? 1 : 0));
  const newest = ordered.at(-1);
  const inbound = ordered.filter((message) => message.is_from_customer);
  const awaitingMedia = inbound.filter((message) => message.media_transcription_pending).map((message) => message._id);
  let unread = 0;
  for (let index = ordered.length - 1; index >= 0 && ordered[index].is_from_customer; index -= 1) unread += 1;
  return {
    last_message: newest
      ? { uuid: newest._id, body: newest.body, content_type: newest.content_type, is_from_customer: newest.is_from_customer, created_at: newest.created_at }
      : null,
    last_inbound_at: inbound.at(-1)?.created_at ?? null,
    unread_count: unread,
    media_awaiting_transcription: awaitingMedia.length,
    awaiting_media_message_ids: awaitingMedia,
    sort_at: newest?.created_at ?? conversationCreatedAt,
  };
}
