interface ContactFields {
  first_name?: string | null;
  middle_name?: string | null;
  last_name?: string | null;
  second_last_name?: string | null;
  profile_name?: string | null;
  phone?: string | null;
  chat_user_id?: string | null;
}

/** The contact fields a conversation list item shows. */
export interface ContactSnapshot {
  name: string | null;
  profile_name: string | null;
  phone: string | null;
  chat_user_id: string | null;
}

/** "First Middle Last SecondLast", skipping absent parts; undefined when there is no part at all. */
export function fullName(contact: ContactFields): string | undefined {
  const parts = [contact.first_name, contact.middle_name, contact.last_name, contact.second_last_name]
    .map((part) => part?.trim())
    .filter((part): part is string => !!part);
  return parts.length ? parts.join(' ') : undefined;
}

/**
 * Conversations keep a copy of these contact fields so that a list page is one indexed query with
 * no join (lists are read far more often than contacts change). Whatever writes a contact's name,
 * phone or platform id refreshes the copy with this function.
 */
export function contactSnapshotOf(contact: ContactFields): ContactSnapshot {
  return {
    name: fullName(contact) ?? contact.profile_name ?? null,
    profile_name: contact.profile_name ?? null,
    phone: contact.phone ?? null,
    chat_user_id: contact.chat_user_id ?? null,
  };
}
