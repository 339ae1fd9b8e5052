import type { AttributeWrite } from '@cmsg/contact-filter';
import type { BusinessScope, ContactEntity, NewContact, OutboxEntry } from '@cmsg/dal';
import type { authorOf } from '@cmsg/events';
import { type ConsentStatus, type ContactEdit, externalIdKey, planContactChange } from './contact-edit';
import { contactChangeEntries, contactCreatedEntry } from './contact-events';
import type { ContactChannel, ContactPorts } from './contact-ports';

/** The body of POST /contacts (CONTRACT 10.1). */
export interface UpsertContactCommand {
  channel?: string;
  phone?: string;
  chat_user_id?: string;
  external_id?: string;
  first_name?: string;
  last_name?: string;
  email?: string;
  language?: string;
  attributes?: Record<string, unknown>;
  consent?: { marketing?: ConsentStatus; utility?: ConsentStatus };
}

/** The edit a POST /contacts body asks for (its phone already normalised to its key). */
export function editOf(command: UpsertContactCommand, phoneKey: string | undefined, attributes: AttributeWrite | undefined): ContactEdit {
  return {
    first_name: command.first_name,
    last_name: command.last_name,
    email: command.email,
    language: command.language,
    external_id: command.external_id,
    phone_key: phoneKey,
    chat_user_id: command.chat_user_id,
    attributes: attributes && { set: attributes.set, unset: attributes.unset },
    consent: command.consent && { marketing: command.consent.marketing, utility: command.consent.utility },
    consentSource: 'api',
  };
}

/** A contact as POST /contacts creates it, with the entries of its events (contact.created, its consent). */
export function newContact(ports: ContactPorts, scope: BusinessScope, id: string, channel: ContactChannel, edit: ContactEdit, author: ReturnType<typeof authorOf>): { contact: NewContact; outbox: OutboxEntry[] } {
  const now = ports.clock();
  const blank = { _id: id, business_id: scope.businessId, channel_id: channel.id, revision: 0, consent: {} } as unknown as ContactEntity;
  const plan = planContactChange(blank, edit, now);
  const conversationId = ports.ids.conversationFor(id);
  const outbox = [contactCreatedEntry(id, conversationId, author, now, () => ports.ids.random())];
  // A new contact's consent is a change from unknown; its other fields are not "updated".
  if (plan) outbox.push(...contactChangeEntries(id, conversationId, { ...plan, changed: [] }, author, now, () => ports.ids.random()));
  const fields = Object.fromEntries(Object.entries(plan?.set ?? {}).filter(([field]) => !field.startsWith('consent.')));
  const consent = Object.fromEntries((plan?.consentChanges ?? []).map((change) => [change.category, { status: change.to, source: change.source, updated_at: now }]));
  return {
    contact: {
      ...fields,
      ...(edit.external_id ? { external_id_key: externalIdKey(scope.businessId, edit.external_id) } : {}),
      _id: id,
      channel_id: channel.id,
      acquisition_source: 'api',
      consent: { marketing: consent['marketing'] ?? unknownConsent(), utility: consent['utility'] ?? unknownConsent() },
      created_at: now,
      updated_at: now,
      outbox,
    } as NewContact,
    outbox,
  };
}

function unknownConsent() {
  return { status: 'unknown', source: null, updated_at: null };
}
