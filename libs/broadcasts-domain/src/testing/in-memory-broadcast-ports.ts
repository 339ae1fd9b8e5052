import type { BusinessScope, OutboxCollection, OutboxEntry } from '@cmsg/dal';
import { CatalogError } from '@cmsg/errors';
import { type ManualClock, manualClock } from '@cmsg/platform';
import type { AudienceContact, AudienceFileInfo, AudiencePorts, BroadcastChannel, BroadcastTemplateInfo, DefinitionPorts } from '../core/audience-ports';
import type { BroadcastClock, BroadcastEvents, SendSlice, SlicePublisher } from '../core/broadcast-ports';

/** A clock the spec moves by hand. */
export type TestClock = ManualClock & BroadcastClock;
export const testClock: (iso?: string) => TestClock = manualClock;

export interface RecordedEvent {
  collection: OutboxCollection;
  businessId: string;
  documentId: string;
  entry: OutboxEntry;
}

/** BroadcastEvents that keeps what it was asked to record. */
export function recordingEvents(): BroadcastEvents & { recorded: RecordedEvent[] } {
  const recorded: RecordedEvent[] = [];
  return {
    recorded,
    recordQuietly: async (collection, scope, documentId, entries) => {
      for (const entry of entries) recorded.push({ collection, businessId: scope.businessId, documentId, entry });
    },
  };
}

/** A SlicePublisher that keeps every slice published, in order. */
export function recordingSlices(): SlicePublisher & { published: SendSlice[] } {
  const published: SendSlice[] = [];
  return {
    published,
    publish: async (slices) => {
      published.push(...slices.map((slice) => ({ ...slice })));
    },
  };
}

/** An audience contact of a business, as the contacts collection would answer it. */
export type StoredAudienceContact = AudienceContact & { business_id: string };

/** An uploaded file of a business with its content. */
export type StoredAudienceFile = Omit<AudienceFileInfo, 'size'> & { business_id: string; content: string };

/**
 * The filter language of these specs (the apps use CONTRACT 10.1's): `{}` every contact of the
 * channel, `{ plan: "gold" }` those whose attribute `plan` is `gold`. Anything else is refused.
 */
function matches(filter: unknown, contact: AudienceContact): boolean {
  return Object.entries(filter as Record<string, unknown>).every(([key, value]) => contact.attributes[key] === value);
}

const digitsOf = (phone: string | null) => (phone ?? '').replace(/\D+/g, '');

/**
 * AudiencePorts over the contacts and files of every business; a spec removes a contact to erase it.
 * upsertByPhone matches a contact of the channel by its phone digits (the first stored), else creates
 * `phone-<digits>` with conversation `conv-phone-<digits>`; a phone of other than 8 to 15 digits is
 * `invalid_phone`. createByPhones does the same for many (leaving such phones out).
 */
export function inMemoryAudience(
  contacts: StoredAudienceContact[],
  files: StoredAudienceFile[] = [],
  chunkSize = 16,
): AudiencePorts & { contacts: StoredAudienceContact[]; files: StoredAudienceFile[] } {
  const ofScope = (scope: BusinessScope) => contacts.filter((contact) => contact.business_id === scope.businessId);
  const plain = ({ business_id: _business, ...contact }: StoredAudienceContact): AudienceContact => structuredClone(contact);
  const fileOf = (scope: BusinessScope, id: string) => files.find((file) => file.business_id === scope.businessId && file.id === id);
  const byPhoneKey = (scope: BusinessScope, channelId: string, key: string) => ofScope(scope).find((contact) => contact.channel_id === channelId && digitsOf(contact.phone) === key);
  const created = (scope: BusinessScope, channelId: string, key: string): StoredAudienceContact => {
    const contact: StoredAudienceContact = {
      business_id: scope.businessId,
      id: `phone-${key}`,
      channel_id: channelId,
      phone: `+${key}`,
      chat_user_id: null,
      conversation_id: `conv-phone-${key}`,
      first_name: null,
      last_name: null,
      attributes: {},
      consent: { marketing: 'unknown', utility: 'unknown' },
    };
    contacts.push(contact);
    return contact;
  };
  return {
    contacts,
    files,
    validateFilter: async (_scope, filter) => {
      if (typeof filter !== 'object' || filter === null || Array.isArray(filter) || Object.values(filter).some((value) => typeof value !== 'string')) {
        throw new CatalogError('INVALID_REQUEST', 'audience.filter: not a filter.');
      }
    },
    contactsMatching: async (scope, filter, channelId, afterId, limit) =>
      ofScope(scope)
        .filter((contact) => contact.channel_id === channelId && (afterId === null || contact.id > afterId) && matches(filter, contact))
        .sort((a, b) => (a.id < b.id ? -1 : 1))
        .slice(0, limit)
        .map(plain),
    contactsByIds: async (scope, ids) => ofScope(scope).filter((contact) => ids.includes(contact.id)).map(plain),
    fileInfo: async (scope, fileId) => {
      const file = fileOf(scope, fileId);
      if (!file) return null;
      const { business_id: _business, content, ...info } = file;
      return { ...info, size: Buffer.byteLength(content) };
    },
    openFile: (scope, fileId, startOffset) => {
      const file = fileOf(scope, fileId);
      if (!file) throw new Error(`no file ${fileId}`);
      const bytes = Buffer.from(file.content, 'utf8').subarray(startOffset);
      return (async function* () {
        for (let start = 0; start < bytes.length; start += chunkSize) yield new Uint8Array(bytes.subarray(start, start + chunkSize));
      })();
    },
    upsertByPhone: async (scope, channelId, phone) => {
      const key = digitsOf(phone);
      if (key.length < 8 || key.length > 15) return 'invalid_phone';
      return plain(byPhoneKey(scope, channelId, key) ?? created(scope, channelId, key));
    },
    createByPhones: async (scope, channelId, phones) => {
      const found = new Map<string, AudienceContact>();
      for (const key of phones.map(digitsOf).filter((digits) => digits.length >= 8 && digits.length <= 15)) {
        found.set(key, plain(byPhoneKey(scope, channelId, key) ?? created(scope, channelId, key)));
      }
      return found;
    },
    contactsByPhoneKeys: async (scope, channelId, phoneKeys) => {
      const found = new Map<string, AudienceContact>();
      for (const key of phoneKeys) {
        const contact = byPhoneKey(scope, channelId, key);
        if (contact) found.set(key, plain(contact));
      }
      return found;
    },
  };
}

export type StoredChannel = BroadcastChannel & { business_id: string };
export type StoredTemplate = BroadcastTemplateInfo & { business_id: string };

export interface DefinitionWorld {
  channels: StoredChannel[];
  templates: StoredTemplate[];
  timeZone: string;
  /** Messaging-limit units left per channel id (absent: unlimited). */
  remaining: Record<string, number>;
}

/** DefinitionPorts over channels and templates of every business. */
export function inMemoryDefinitions(world: DefinitionWorld): DefinitionPorts {
  const channelOf = (channel: StoredChannel | undefined): BroadcastChannel | null => {
    if (!channel) return null;
    const { business_id: _business, ...rest } = channel;
    return { ...rest };
  };
  return {
    channelByPublicKey: async (scope, publicKey) => channelOf(world.channels.find((channel) => channel.business_id === scope.businessId && channel.public_key === publicKey)),
    channelById: async (scope, id) => channelOf(world.channels.find((channel) => channel.business_id === scope.businessId && channel.id === id)),
    template: async (scope, channelId, reference) => {
      const found = world.templates.find(
        (template) =>
          template.business_id === scope.businessId &&
          template.channel_id === channelId &&
          (reference.uuid ? template.uuid === reference.uuid : template.name === reference.name && template.language === reference.language),
      );
      if (!found) return null;
      const { business_id: _business, ...template } = found;
      return template;
    },
    businessTimeZone: async () => world.timeZone,
    messagingLimitRemaining: async (_scope, channel) => world.remaining[channel.id] ?? null,
  };
}
