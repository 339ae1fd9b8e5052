import { phoneDigits } from '@cmsg/contact-filter';
import type { BusinessScope } from '@cmsg/dal';
import { authorOf } from '@cmsg/events';
import type { ContactBulkPorts, ContactChannel } from './contact-ports';
import { editOf, newContact } from './new-contact';
import { upsertContact } from './upsert-contact.usecase';

/**
 * The contacts of many phones of one channel that no contact of the channel had when the caller
 * looked (an audience file's new phones), created as POST /contacts `{channel, phone}` creates each
 * (the same ids, fields, conversation and events, author an API token without a uuid) but in a
 * handful of writes: the contacts in one insert, their conversations in one, and the events of
 * each in one recording. A phone whose insert meets a contact created meanwhile (another writer,
 * the same batch frozen again after a crash) is upserted on its own, as POST /contacts would.
 * Phones that are not 8 to 15 digits are left out. Answers the contact id of each phone key.
 */
export async function createPhoneContacts(ports: ContactBulkPorts, scope: BusinessScope, channel: ContactChannel, phones: readonly string[]): Promise<Map<string, string>> {
  const phoneByKey = new Map<string, string>();
  for (const phone of phones) {
    const key = phoneDigits(phone);
    if (key.length >= 8 && key.length <= 15 && !phoneByKey.has(key)) phoneByKey.set(key, phone);
  }
  const keys = [...phoneByKey.keys()];
  if (keys.length === 0) return new Map();
  const author = authorOf({ type: 'api_token', uuid: null });
  const ids = await ports.ids.contactsFor(
    scope,
    channel.id,
    keys.map((key) => `phone:${key}`),
  );
  const built = keys.map((key, index) => ({ key, ...newContact(ports, scope, ids[index]!, channel, editOf({}, key, undefined), author) }));
  const inserted = new Set(await ports.contacts.insertManyNew(scope, built.map(({ contact }) => contact)));
  const made = built.filter(({ contact }) => inserted.has(contact._id));
  // As upsertContact does for one: the conversation first, then the contact's own events.
  await ports.conversations.ensureManyFor(scope, await ports.contacts.findByIds(scope, [...inserted]), channel, ports.clock());
  await ports.events.recordManyQuietly('contacts', scope, made.map(({ contact, outbox }) => ({ documentId: contact._id, entries: outbox })));

  const contactIds = new Map(made.map(({ key, contact }) => [key, contact._id]));
  for (const { key } of built.filter(({ contact }) => !inserted.has(contact._id))) {
    const upserted = await upsertContact(ports, scope, { tokenUuid: '' }, { channel: channel.publicKey, phone: phoneByKey.get(key)! });
    if (upserted.contact) contactIds.set(key, upserted.contact.uuid);
  }
  return contactIds;
}
