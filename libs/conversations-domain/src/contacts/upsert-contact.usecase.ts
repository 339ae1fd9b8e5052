import { type AttributeWrite, phoneDigits, validateAttributeValues } from '@cmsg/contact-filter';
import type { BusinessScope, ContactEntity, NewContact, OutboxEntry } from '@cmsg/dal';
import { CatalogError } from '@cmsg/errors';
import { authorOf } from '@cmsg/events';
import type { UpsertContactResponse } from '@cmsg/proto';
import { type ConsentStatus, type ContactEdit, externalIdKey, planContactChange } from './contact-edit';
import { contactChangeEntries, contactCreatedEntry } from './contact-events';
import { attributeDefinitionsOf } from './contact-attributes.usecase';
import type { ContactChannel, ContactPorts } from './contact-ports';
import { contactView, contactViewContext } from './contact-view';
import { writeContactEdit } from './contact-writer';

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

/** Rounds of match-then-write: each lost race (a concurrent create of the same identity) costs one. */
const MAX_UPSERT_ROUNDS = 5;

/**
 * POST /contacts (CONTRACT 10.1): the contact matched by external_id, else chat_user_id, else
 * phone (digits, within the channel) is updated with the given fields; no match creates it with
 * its conversation. A create that loses a race (the same external_id or identity inserted
 * concurrently, held unique by the data layer) matches again, so concurrent creates of one
 * identifier make one contact.
 */
export async function upsertContact(ports: ContactPorts, scope: BusinessScope, actor: { tokenUuid: string }, command: UpsertContactCommand): Promise<UpsertContactResponse> {
  const phoneKey = command.phone === undefined ? undefined : normalisedPhone(command.phone);
  const definitions = await ports.attributeDefinitions.list(scope);
  const attributes = command.attributes === undefined ? undefined : validateAttributeValues(attributeDefinitionsOf(definitions), command.attributes);
  const named = command.channel === undefined ? undefined : await channelByKey(ports, scope, command.channel);
  const edit = editOf(command, phoneKey, attributes);
  const author = authorOf({ type: 'api_token', uuid: actor.tokenUuid || null });
  let idTaken = false;
  for (let round = 0; round < MAX_UPSERT_ROUNDS; round += 1) {
    const channel = named ?? (phoneKey !== undefined || command.chat_user_id !== undefined ? await onlyChannel(ports, scope) : undefined);
    const match = await matchedContact(ports, scope, command, phoneKey, channel);
    if (match) {
      const conversationId = (await ports.conversations.idsByContactIds(scope, [match._id])).get(match._id) ?? ports.ids.conversationFor(match._id);
      const contact = await writeContactEdit(ports, scope, match, edit, author, conversationId);
      // Also heals a contact whose conversation a crash kept from being created, and refreshes its copy of the names.
      await ports.conversations.ensureFor(scope, contact, await channelOf(ports, scope, contact), ports.clock());
      return { contact: await view(ports, scope, contact, definitions), created: false };
    }
    if (phoneKey === undefined && command.chat_user_id === undefined) {
      throw new CatalogError('INVALID_REQUEST', 'No contact matches external_id; creating a contact needs phone or chat_user_id.');
    }
    const creating = channel ?? (await onlyChannel(ports, scope));
    const identity = phoneKey !== undefined ? `phone:${phoneKey}` : `user:${command.chat_user_id}`;
    const id = idTaken ? ports.ids.random() : await ports.ids.contactFor(scope, creating.id, identity);
    const { contact, outbox } = newContact(ports, scope, id, creating, edit, author);
    const inserted = await ports.contacts.insertNew(scope, contact);
    if (inserted === 'inserted') {
      const stored = await ports.contacts.findById(scope, id);
      if (!stored) throw new CatalogError('UPDATE_FAILED', `The contact ${id} vanished right after it was created.`);
      await ports.conversations.ensureFor(scope, stored, creating, ports.clock());
      await ports.events.recordQuietly('contacts', scope, id, outbox);
      return { contact: await view(ports, scope, stored, definitions), created: true };
    }
    // Another request created this identity or this external_id first: match again. An id taken by a
    // contact that no longer holds this identity (its phone changed) is not a match: a random id then.
    idTaken = inserted === 'id_taken';
  }
  throw new CatalogError('UPDATE_FAILED', 'The contact kept changing while it was written; retry.');
}

/** 8 to 15 digits once everything else is dropped (E.164). */
export function normalisedPhone(phone: string): string {
  const digits = phoneDigits(phone);
  if (digits.length < 8 || digits.length > 15) throw new CatalogError('INVALID_REQUEST', 'phone must have 8 to 15 digits (E.164).');
  return digits;
}

function editOf(command: UpsertContactCommand, phoneKey: string | undefined, attributes: AttributeWrite | undefined): ContactEdit {
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

/**
 * The contact the identifiers name, in the order external_id > chat_user_id > phone; two of them
 * naming different contacts is CONTACT_IDENTIFIER_CONFLICT.
 */
async function matchedContact(ports: ContactPorts, scope: BusinessScope, command: UpsertContactCommand, phoneKey: string | undefined, channel: ContactChannel | undefined): Promise<ContactEntity | null> {
  const [byExternalId, byUserId, byPhone] = await Promise.all([
    command.external_id === undefined ? null : ports.contacts.findByExternalId(scope, command.external_id),
    command.chat_user_id === undefined || !channel ? null : ports.contacts.findOldestOnChannel(scope, channel.id, { chat_user_id: command.chat_user_id }),
    phoneKey === undefined || !channel ? null : ports.contacts.findOldestOnChannel(scope, channel.id, { phone_key: phoneKey }),
  ]);
  const found = [byExternalId, byUserId, byPhone].filter((contact): contact is ContactEntity => contact !== null);
  if (new Set(found.map((contact) => contact._id)).size > 1) {
    throw new CatalogError('CONTACT_IDENTIFIER_CONFLICT', `The identifiers given match different contacts (${[...new Set(found.map((contact) => contact._id))].join(', ')}).`);
  }
  return found[0] ?? null;
}

async function channelByKey(ports: ContactPorts, scope: BusinessScope, publicKey: string): Promise<ContactChannel> {
  const channel = await ports.channels.byPublicKey(scope, publicKey);
  if (!channel) throw new CatalogError('CHANNEL_NOT_FOUND', `No channel ${publicKey} in this business.`);
  return channel;
}

async function onlyChannel(ports: ContactPorts, scope: BusinessScope): Promise<ContactChannel> {
  const channels = await ports.channels.first(scope, 2);
  if (channels.length === 1) return channels[0]!;
  if (channels.length === 0) throw new CatalogError('CHANNEL_NOT_CONFIGURED', 'The business has no channel.');
  throw new CatalogError('INVALID_REQUEST', 'channel is required: the business has several channels.');
}

async function channelOf(ports: ContactPorts, scope: BusinessScope, contact: ContactEntity): Promise<ContactChannel> {
  const [channel] = await ports.channels.byIds(scope, [contact.channel_id]);
  if (!channel) throw new CatalogError('CHANNEL_NOT_FOUND', `The channel of contact ${contact._id} no longer exists.`);
  return channel;
}

function newContact(ports: ContactPorts, scope: BusinessScope, id: string, channel: ContactChannel, edit: ContactEdit, author: ReturnType<typeof authorOf>): { contact: NewContact; outbox: OutboxEntry[] } {
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

async function view(ports: ContactPorts, scope: BusinessScope, contact: ContactEntity, definitions: Awaited<ReturnType<ContactPorts['attributeDefinitions']['list']>>) {
  return contactView(contact, await contactViewContext(ports, scope, [contact], definitions));
}
