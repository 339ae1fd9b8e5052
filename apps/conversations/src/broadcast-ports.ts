import type { AudienceContact, AudiencePorts, BroadcastChannel, BroadcastStore, DefinitionPorts, SendSlice, SlicePublisher } from '@cmsg/broadcasts-domain';
import { compileContactFilter, parseContactFilter } from '@cmsg/contact-filter';
import { type ContactBulkPorts, attributeDefinitionsOf, createPhoneContacts, upsertContact } from '@cmsg/conversations-domain';
import {
  BroadcastRecipientRepository,
  BroadcastRepository,
  BusinessRepository,
  type BusinessScope,
  type ChannelEntity,
  ChannelRepository,
  ContactAttributeDefinitionRepository,
  type ContactEntity,
  ContactRepository,
  ConversationRepository,
  TemplateRepository,
} from '@cmsg/dal';
import { CatalogError, isCatalogError } from '@cmsg/errors';
import type { Files } from '@cmsg/files';
import { sendKeyedMany } from '@cmsg/platform/kafka';
import type { Producer } from 'kafkajs';

export function broadcastStore(): BroadcastStore {
  return { broadcasts: new BroadcastRepository(), recipients: new BroadcastRecipientRepository() };
}

/** What a file audience needs besides the contacts collection: the file store and POST /contacts' upsert. */
export interface AudienceFileDependencies {
  files: Files;
  /** The contact use cases' ports (contact-ports.ts), shared with POST /contacts. */
  contacts: ContactBulkPorts;
}

/** Keys a phone lookup of a preview sends at once, and the contacts it reads for them (a phone may be on several channels). */
const PHONE_LOOKUP_KEYS = 100;
const CONTACTS_PER_PHONE_KEY = 20;

/**
 * The contacts of an audience: CONTRACT 10.1's filter language over the contacts collection; for a
 * file audience, the file in GridFS and each row's contact upserted by upsertContact, as POST
 * /contacts does.
 */
export function audiencePorts({ files, contacts: contactUseCasePorts }: AudienceFileDependencies): AudiencePorts {
  const contacts = new ContactRepository();
  const channels = new ChannelRepository();
  const conversations = new ConversationRepository();
  const definitions = new ContactAttributeDefinitionRepository();
  const parse = async (scope: BusinessScope, filter: unknown) => parseContactFilter(filter, attributeDefinitionsOf(await definitions.list(scope)));
  const broadcastChannel = async (scope: BusinessScope, channelId: string): Promise<ChannelEntity> => {
    const [channel] = await channels.findByIds(scope, [channelId]);
    if (!channel) throw new CatalogError('CHANNEL_NOT_FOUND', `The channel ${channelId} of the broadcast no longer exists.`);
    return channel;
  };
  const withConversations = async (scope: BusinessScope, rows: ContactEntity[]): Promise<AudienceContact[]> => {
    const conversationIds = await conversations.idsByContactIds(scope, rows.map((row) => row._id));
    return rows.map((row) => audienceContactOf(row, conversationIds.get(row._id) ?? null));
  };
  return {
    validateFilter: async (scope, filter) => {
      await parse(scope, filter);
    },
    contactsMatching: async (scope, filter, channelId, afterId, limit) => {
      const compiled = compileContactFilter(await parse(scope, filter));
      return withConversations(scope, await contacts.findMatchingInIdOrder(scope, { filter: compiled, channelId, afterId, limit }));
    },
    contactsByIds: async (scope, ids) => withConversations(scope, await contacts.findByIds(scope, ids)),
    fileInfo: async (scope, fileId) => {
      const file = await files.describeFile(scope, fileId);
      return file && { id: file.uuid, module: file.module, status: file.status, mime_type: file.mime_type, size: file.size };
    },
    openFile: (scope, fileId, startOffset) => fileContent(files, scope, fileId, startOffset),
    upsertByPhone: async (scope, channelId, phone) => {
      const channel = await broadcastChannel(scope, channelId);
      let upserted;
      try {
        // Like POST /contacts with only phone and channel; the author is an api_token without a uuid.
        upserted = await upsertContact(contactUseCasePorts, scope, { tokenUuid: '' }, { channel: channel.public_key, phone });
      } catch (error) {
        if (isCatalogError(error) && error.code === 'INVALID_REQUEST') return 'invalid_phone';
        throw error;
      }
      const uuid = upserted.contact?.uuid;
      const [contact] = uuid ? await withConversations(scope, await contacts.findByIds(scope, [uuid])) : [];
      if (!contact) throw new CatalogError('UPDATE_FAILED', `The contact of ${phone} vanished right after it was upserted; the batch is frozen again.`);
      return contact;
    },
    createByPhones: async (scope, channelId, phones) => {
      const channel = await broadcastChannel(scope, channelId);
      const contactIds = await createPhoneContacts(contactUseCasePorts, scope, { id: channelId, publicKey: channel.public_key }, phones);
      const byId = new Map((await withConversations(scope, await contacts.findByIds(scope, [...contactIds.values()]))).map((contact) => [contact.id, contact]));
      return new Map([...contactIds].flatMap(([key, id]) => (byId.has(id) ? [[key, byId.get(id)!] as const] : [])));
    },
    contactsByPhoneKeys: async (scope, channelId, phoneKeys) => {
      const found = new Map<string, AudienceContact>();
      for (let start = 0; start < phoneKeys.length; start += PHONE_LOOKUP_KEYS) {
        const keys = phoneKeys.slice(start, start + PHONE_LOOKUP_KEYS);
        // Newest first (the phone lookup index of contact searches): the last one seen per key is the oldest, the one an upsert matches.
        const page = await contacts.searchPage(scope, { filter: { phone_key: { $in: keys } }, after: {}, limit: keys.length * CONTACTS_PER_PHONE_KEY });
        const oldest = [...new Map(page.filter((contact) => contact.channel_id === channelId && contact.phone_key).map((contact) => [contact.phone_key!, contact])).values()];
        const withIds = await withConversations(scope, oldest);
        oldest.forEach((contact, index) => found.set(contact.phone_key!, withIds[index]!));
      }
      return found;
    },
  };
}

/** A confirmed file's bytes from `startOffset`; leaving the iteration early destroys the GridFS stream. */
async function* fileContent(files: Files, scope: BusinessScope, fileId: string, startOffset: number): AsyncGenerator<Buffer> {
  const content = await files.openConfirmedContent(scope, fileId, startOffset);
  try {
    for await (const chunk of content as AsyncIterable<Buffer>) yield chunk;
  } finally {
    content.destroy();
  }
}

function audienceContactOf(contact: ContactEntity, conversationId: string | null): AudienceContact {
  const consent = contact.consent as { marketing?: { status?: string }; utility?: { status?: string } } | undefined;
  return {
    id: contact._id,
    channel_id: contact.channel_id,
    phone: contact.phone ?? null,
    chat_user_id: contact.chat_user_id ?? null,
    conversation_id: conversationId,
    first_name: contact.first_name ?? null,
    last_name: contact.last_name ?? null,
    attributes: Object.fromEntries((contact.attributes ?? []).map((attribute: { k: string; v: unknown }) => [attribute.k, attribute.v])),
    consent: { marketing: consent?.marketing?.status ?? 'unknown', utility: consent?.utility?.status ?? 'unknown' },
  };
}

/** Channels, templates and the business time zone; the messaging limit from the send engine. */
export function definitionPorts(messagingLimitRemaining: (channel: BroadcastChannel) => Promise<number | null>): DefinitionPorts {
  const channels = new ChannelRepository();
  const templates = new TemplateRepository();
  const businesses = new BusinessRepository();
  return {
    channelByPublicKey: async (scope, publicKey) => channelOf(await channels.findByPublicKey(scope, publicKey)),
    channelById: async (scope, id) => channelOf((await channels.findByIds(scope, [id]))[0] ?? null),
    template: async (scope, channelId, reference) => {
      const candidates = reference.uuid
        ? [await templates.findById(scope, reference.uuid)]
        : await templates.findByNameAndLanguage(scope, reference.name ?? '', reference.language ?? '');
      const template = candidates.find((candidate) => candidate && candidate.channel_id === channelId);
      if (!template) return null;
      return { uuid: String(template._id), name: template.name, language: template.language, category: template.category, status: template.status, channel_id: template.channel_id };
    },
    businessTimeZone: async (scope) => (await businesses.findById(scope))?.time_zone ?? 'UTC',
    messagingLimitRemaining: (_scope, channel) => messagingLimitRemaining(channel),
  };
}

export function channelOf(channel: ChannelEntity | null): BroadcastChannel | null {
  if (!channel) return null;
  return {
    id: String(channel._id),
    public_key: channel.public_key,
    max_messages_per_second: channel.max_messages_per_second ?? 80,
    messaging_limit: channel.messaging_limit ?? null,
  };
}

/** Kafka `broadcast-sends`: a slice per message, keyed so that slices spread over every partition. */
export function kafkaSlicePublisher(producer: Producer, topic: string): SlicePublisher {
  return {
    publish: async (slices: readonly SendSlice[]) => {
      for (let start = 0; start < slices.length; start += 500) {
        await sendKeyedMany(
          producer,
          topic,
          slices.slice(start, start + 500).map((slice) => ({ key: `${slice.broadcast_id}:${slice.from_seq}`, value: slice })),
        );
      }
    },
  };
}
