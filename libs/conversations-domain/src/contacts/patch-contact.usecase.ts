import { validateAttributeValues } from '@cmsg/contact-filter';
import type { BusinessScope } from '@cmsg/dal';
import { CatalogError } from '@cmsg/errors';
import { authorOf } from '@cmsg/events';
import type { Contact } from '@cmsg/proto';
import type { ContactEdit } from './contact-edit';
import { attributeDefinitionsOf } from './contact-attributes.usecase';
import type { ContactPorts } from './contact-ports';
import { contactView, contactViewContext } from './contact-view';
import { writeContactEdit } from './contact-writer';
import { existingContact } from './get-contact.usecase';

/** The members a merge patch may carry (the gateway's schema checked their types). */
export interface ContactMergePatch {
  first_name?: string | null;
  last_name?: string | null;
  email?: string | null;
  language?: string | null;
  external_id?: string | null;
  attributes?: Record<string, unknown> | null;
}

const TEXT_MEMBERS = ['first_name', 'last_name', 'email', 'language', 'external_id'] as const;

/**
 * PATCH /contacts/{uuid}: JSON Merge Patch (RFC 7386). A member set to null removes it; in
 * `attributes` a key set to null removes that value and `attributes: null` removes every value.
 */
export async function patchContact(ports: ContactPorts, scope: BusinessScope, actor: { tokenUuid: string }, uuid: string, patch: ContactMergePatch): Promise<Contact> {
  for (const member of ['phone', 'chat_user_id']) {
    if (member in patch) throw new CatalogError('INVALID_REQUEST', `${member} is not patchable.`);
  }
  const contact = await existingContact(ports, scope, uuid);
  const definitions = await ports.attributeDefinitions.list(scope);
  const edit: ContactEdit = {};
  for (const member of TEXT_MEMBERS) {
    const value = patch[member];
    if (value !== undefined && value !== null && typeof value !== 'string') throw new CatalogError('INVALID_REQUEST', `${member} must be a string or null.`);
    edit[member] = value;
  }
  if (patch.attributes === null) edit.attributes = { set: [], unset: [], removeAll: true };
  else if (patch.attributes !== undefined) edit.attributes = validateAttributeValues(attributeDefinitionsOf(definitions), patch.attributes);
  // A change creates the contact's conversation when it has none (its channel still there): its
  // events name the one it is about to get, as POST /contacts does.
  const [channel] = await ports.channels.byIds(scope, [contact.channel_id]);
  const existing = (await ports.conversations.idsByContactIds(scope, [contact._id])).get(contact._id);
  const conversationId = existing ?? (channel ? ports.ids.conversationFor(contact._id) : null);
  const author = authorOf({ type: 'api_token', uuid: actor.tokenUuid || null });
  const patched = await writeContactEdit(ports, scope, contact, edit, author, conversationId);
  if (patched !== contact && channel) await ports.conversations.ensureFor(scope, patched, channel, ports.clock());
  return contactView(patched, await contactViewContext(ports, scope, [patched], definitions));
}
