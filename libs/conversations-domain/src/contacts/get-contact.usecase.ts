import type { BusinessScope, ContactEntity } from '@cmsg/dal';
import { CatalogError } from '@cmsg/errors';
import type { Contact } from '@cmsg/proto';
import type { ContactPorts } from './contact-ports';
import { contactView, contactViewContext } from './contact-view';

/** GET /contacts/{uuid}: the contact of this business, else CONTACT_NOT_FOUND (another business's too). */
export async function getContact(ports: ContactPorts, scope: BusinessScope, uuid: string): Promise<Contact> {
  const contact = await existingContact(ports, scope, uuid);
  return contactView(contact, await contactViewContext(ports, scope, [contact]));
}

export async function existingContact(ports: { contacts: Pick<ContactPorts['contacts'], 'findById'> }, scope: BusinessScope, uuid: string): Promise<ContactEntity> {
  const contact = await ports.contacts.findById(scope, uuid);
  if (!contact || (contact as { erased_at?: Date | null }).erased_at) throw new CatalogError('CONTACT_NOT_FOUND', `No contact ${uuid} in this business.`);
  return contact;
}
