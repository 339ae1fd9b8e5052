import { phoneDigits, validateAttributeValues } from '@cmsg/contact-filter';
import type { BusinessScope, ContactEntity } from '@cmsg/dal';
import { CatalogError } from '@cmsg/errors';
import { authorOf } from '@cmsg/events';
import type { UpsertContactResponse } from '@cmsg/proto';
import { attributeDefinitionsOf } from './contact-attributes.usecase';
import type { ContactChannel, ContactPorts } from './contact-ports';
import { contactView, contactViewContext } from './contact-view';
import { writeContactEdit } from './contact-writer';
import { type UpsertContactCommand, editOf, newContact } from './new-contact';

export type { UpsertContactCommand } from './new-contact';

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

async function view(ports: ContactPorts, scope: BusinessScope, contact: ContactEntity, definitions: Awaited<ReturnType<ContactPorts['attributeDefinitions']['list']>>) {
  return contactView(contact, await contactViewContext(ports, scope, [contact], definitions));
}
