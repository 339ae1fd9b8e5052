import type { BusinessScope, ContactEntity, StoredAttributeDefinition } from '@cmsg/dal';
import type { ConsentState, Contact } from '@cmsg/proto';
import { fullName } from './contact-names';
import type { ContactReadPorts } from './contact-ports';

/** What a contact's public shape needs beyond its document (CONTRACT 10.1). */
export interface ContactViewContext {
  /** Channel public keys by channel id. */
  channelKeys: ReadonlyMap<string, string>;
  /** Conversation ids by contact id. */
  conversationIds: ReadonlyMap<string, string>;
  /** The defined keys: a value whose definition was removed is not shown (docs/contacts.md). */
  definedKeys: ReadonlySet<string>;
}

type StoredConsentState = { status?: string | null; source?: string | null; updated_at?: Date | null } | null | undefined;

/** The one public shape of a contact, on every endpoint that returns one. */
export function contactView(contact: ContactEntity, context: ContactViewContext): Contact {
  const consent = (contact as { consent?: { marketing?: StoredConsentState; utility?: StoredConsentState } | null }).consent;
  return {
    uuid: contact._id,
    first_name: contact.first_name ?? undefined,
    middle_name: contact.middle_name ?? undefined,
    last_name: contact.last_name ?? undefined,
    second_last_name: contact.second_last_name ?? undefined,
    full_name: fullName(contact),
    chat_id: contact.phone_key ?? undefined,
    chat_user_id: contact.chat_user_id ?? undefined,
    chat_username: contact.chat_username ?? undefined,
    acquisition_source: contact.acquisition_source ?? undefined,
    is_tester: contact.is_tester,
    created_at: contact.created_at.toISOString(),
    updated_at: contact.updated_at.toISOString(),
    channel: context.channelKeys.get(contact.channel_id),
    phone: contact.phone_key ? `+${contact.phone_key}` : undefined,
    email: contact.email ?? undefined,
    language: contact.language ?? undefined,
    external_id: contact.external_id ?? undefined,
    attributes: Object.fromEntries((contact.attributes ?? []).filter((value) => context.definedKeys.has(value.k)).map((value) => [value.k, value.v])),
    consent: { marketing: consentView(consent?.marketing), utility: consentView(consent?.utility) },
    conversation_uuid: context.conversationIds.get(contact._id),
  };
}

function consentView(state: StoredConsentState): ConsentState {
  return {
    status: state?.status ?? 'unknown',
    source: state?.source ?? undefined,
    updated_at: state?.updated_at ? state.updated_at.toISOString() : undefined,
  };
}

/** The view context of some contacts: their channels' keys, their conversations, the defined keys. */
export async function contactViewContext(
  ports: Pick<ContactReadPorts, 'channels' | 'conversations' | 'attributeDefinitions'>,
  scope: BusinessScope,
  contacts: readonly ContactEntity[],
  definitions?: readonly StoredAttributeDefinition[],
): Promise<ContactViewContext> {
  const [channels, conversationIds, defined] = await Promise.all([
    ports.channels.byIds(scope, [...new Set(contacts.map((contact) => contact.channel_id))]),
    ports.conversations.idsByContactIds(scope, contacts.map((contact) => contact._id)),
    definitions ?? ports.attributeDefinitions.list(scope),
  ]);
  return {
    channelKeys: new Map(channels.map((channel) => [channel.id, channel.publicKey])),
    conversationIds,
    definedKeys: new Set(defined.map((definition) => definition.key)),
  };
}
