/** A business object named in an event, with its name when it is still found (null otherwise). */
export interface NamedObject {
  _id: string;
  name: string | null;
}

/** One side of an owner change (CONTRACT 9.2): an AI employee, or the business's human team. */
export function assignmentParty(aiEmployee: NamedObject | null): Record<string, unknown> {
  return aiEmployee ? { type: 'ai_employee', uuid: aiEmployee._id, name: aiEmployee.name } : { type: 'human', uuid: null, name: null };
}

/** One side of a mailbox change: the mailbox, or null for none. */
export function mailboxParty(mailbox: NamedObject | null): Record<string, unknown> | null {
  return mailbox ? { type: 'mailbox', uuid: mailbox._id, name: mailbox.name } : null;
}

/** conversation.inbox_status_changed: the reason is the pending reason (null when resolving). */
export function inboxStatusChangeData(from: string, to: string, reason: string | null): Record<string, unknown> {
  return { from, to, reason };
}

export function tagsChangeData(added: readonly string[], removed: readonly string[]): Record<string, unknown> {
  return { added: [...added], removed: [...removed] };
}

/** conversation.created: who the conversation is with (as a conversation list item shows it), and on which channel. */
export function conversationCreatedData(
  contactId: string,
  snapshot: { name: string | null; profile_name: string | null; phone: string | null; chat_user_id: string | null },
  channelPublicKey: string,
  isTester: boolean,
): Record<string, unknown> {
  return {
    contact: { uuid: contactId, name: snapshot.name, profile_name: snapshot.profile_name, phone: snapshot.phone, chat_user_id: snapshot.chat_user_id },
    channel: { public_key: channelPublicKey },
    is_tester: isTester,
  };
}
