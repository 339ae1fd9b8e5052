import type { BusinessScope, OutboxAuthor } from '@cmsg/dal';
import { authorOf } from './outbox-entries';

/** Where an AI employee's current name is read (AiEmployeeRepository in the app). */
export interface AiEmployeeNameSource {
  findById(scope: BusinessScope, id: string): Promise<{ name: string } | null>;
}

export type StoredMessageAuthor = { type: string; uuid?: string | null; name?: string | null } | null | undefined;

/**
 * An outbound message's author as its events name it, by the timeline's rule: the name stored with
 * the author, else an AI employee's current name (read from `aiEmployees`); API tokens and the
 * system have none.
 */
export function messageAuthors(aiEmployees: AiEmployeeNameSource): (scope: BusinessScope, author: StoredMessageAuthor) => Promise<OutboxAuthor> {
  return async (scope, author) => {
    if (!author) return authorOf({ type: 'system', uuid: null });
    const uuid = author.uuid ?? null;
    if (author.name) return authorOf({ type: author.type, uuid }, author.name);
    if (author.type !== 'ai_employee' || !uuid) return authorOf({ type: author.type, uuid });
    return authorOf({ type: author.type, uuid }, (await aiEmployees.findById(scope, uuid))?.name ?? null);
  };
}

/** The author of an inbound message: the customer, by contact. */
export function customerAuthor(contactId: string, name: string | null): OutboxAuthor {
  return { type: 'customer', uuid: contactId, name };
}

/** The name a customer is shown by (events and the timeline alike): the contact's name, else its platform profile name. */
export function customerNameOf(contact: { name?: string | null; profile_name?: string | null } | null | undefined): string | null {
  return contact?.name ?? contact?.profile_name ?? null;
}
