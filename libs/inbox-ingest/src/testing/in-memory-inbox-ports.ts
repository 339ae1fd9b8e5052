import { Readable } from 'node:stream';
import type { MediaDownload, MediaInfo } from '@cmsg/chat-platform';
import type { AiRunCommand } from '@cmsg/conversation-commands';
import {
  type BusinessEntity,
  type BusinessScope,
  type ChannelEntity,
  type ContactEntity,
  type ContactLookupKey,
  type ContactSnapshot,
  type ConversationEntity,
  type DeliveryStatusUpdate,
  type FileEntity,
  type InboundMessageApplied,
  type LastMessage,
  type MessageEntity,
  type OutboxAuthor,
  type OutboxCollection,
  type OutboxEntry,
  type UntranscribedMediaStatus,
  type WalletCharge,
  type WalletChargeOutcome,
  storedConversationDefaults,
} from '@cmsg/dal';
import type { InboundMediaInput } from '@cmsg/files';
import type { Logger } from '@cmsg/platform';
import type { InboxIngestDependencies } from '../ingest-inbound-message.usecase';
import type { InboxRepositories, InboundMediaFiles, KeywordConsent, MediaSource, MediaTranscriber } from '../ports';

type Row<Entity> = Entity & { business_id: string };
type Fields = Record<string, unknown>;

/** Rows are handed out as copies, as a database answers them: a use case never edits the stored row. */
const copy = <Value>(value: Value): Value => structuredClone(value);

/** A stored business: only what ingestion reads of it (vision wallet, consent keyword lists). */
export interface StoredBusiness {
  _id: string;
  vision_wallet_tokens: number;
  consent_keywords?: { opt_out?: string[]; opt_in?: string[] } | null;
}

export function channelRow(business: string, id: string, phoneNumberId: string): ChannelEntity {
  return { _id: id, business_id: business, public_key: `pk-${id}`, name: id, phone: '', phone_number_id: phoneNumberId, access_token: `token-${id}`, default_scheduled_template: null, status: 'connected', business_account_id: null, max_messages_per_second: 80, messaging_limit: null };
}

/** A contact with the schema's defaults. */
export function contactRow(fields: Fields & { _id: string; business_id: string; channel_id: string; created_at: Date }): ContactEntity {
  const defaults = { first_name: null, middle_name: null, last_name: null, second_last_name: null, profile_name: null, phone: null, phone_key: null, chat_user_id: null, chat_username: null, username_key: null, acquisition_source: null, is_tester: false, tag_ids: [], attributes: [], outbox: [], updated_at: fields.created_at };
  return { ...defaults, ...fields } as unknown as ContactEntity;
}

/** A conversation with the schema's defaults. */
export function conversationRow(fields: Fields & { _id: string; business_id: string; contact_id: string; channel_id: string; created_at: Date }): ConversationEntity {
  return { ...storedConversationDefaults(fields, fields.created_at), ...fields } as unknown as ConversationEntity;
}

/** A message with the schema's defaults (an inbound media's sub-document too). */
export function messageRow(fields: Fields & { _id: string; business_id: string; conversation_id: string; is_from_customer: boolean; created_at: Date }): MessageEntity {
  const defaults = {
    body: '',
    content_type: 'text',
    status: 'received',
    media_transcription_pending: false,
    provider_message_id: null,
    is_simulated: false,
    author: null,
    error: null,
    media: null,
    transcription: null,
    ingest: null,
    status_at: null,
    pricing: null,
  };
  const media = fields['media'] as Fields | null | undefined;
  const withMedia = media ? { media: { file_uuid: null, file_name: null, size: null, transcription_status: 'pending', transcription_error: null, ...media } } : {};
  return { ...defaults, ...fields, ...withMedia } as unknown as MessageEntity;
}

/**
 * The collections ingestion reads and writes, in memory, with the repositories' conditional updates
 * (a counted message is not counted again, a status only moves forward, the first transcription
 * stands, a wallet charge applies once per operation id).
 */
export class InMemoryInboxRepositories {
  readonly businessRows: StoredBusiness[] = [];
  readonly channelRows: ChannelEntity[] = [];
  readonly contactRows: ContactEntity[] = [];
  readonly erasedContactIds: { business_id: string; contact_id: string }[] = [];
  readonly conversationRows: ConversationEntity[] = [];
  readonly messageRows: MessageEntity[] = [];
  readonly fileRows: (FileEntity & { bytes: Buffer })[] = [];
  readonly walletCharges: { business_id: string; operationId: string; tokens: number }[] = [];

  readonly businesses: InboxRepositories['businesses'] = {
    findById: async (scope) => copy((this.businessRows.find((row) => row._id === scope.businessId) as unknown as BusinessEntity | undefined) ?? null),
    chargeVisionWallet: async (scope: BusinessScope, charge: WalletCharge): Promise<WalletChargeOutcome | null> => {
      const business = this.businessRows.find((row) => row._id === scope.businessId);
      if (!business) return null;
      if (this.walletCharges.some((done) => done.business_id === business._id && done.operationId === charge.operationId)) {
        return { result: 'repeated', balance: business.vision_wallet_tokens, unbilled: 0 };
      }
      this.walletCharges.push({ business_id: business._id, ...charge });
      const covered = Math.min(charge.tokens, Math.max(0, business.vision_wallet_tokens));
      business.vision_wallet_tokens -= covered;
      return { result: 'charged', balance: business.vision_wallet_tokens, unbilled: charge.tokens - covered };
    },
  };

  readonly channels: InboxRepositories['channels'] = {
    findByPhoneNumberIdAcrossBusinesses: async (phoneNumberId) => copy(this.channelRows.find((row) => row.phone_number_id === phoneNumberId) ?? null),
  };

  readonly contacts: InboxRepositories['contacts'] = {
    findOldestOnChannel: async (scope: BusinessScope, channelId: string, key: ContactLookupKey) => {
      const [field, value] = Object.entries(key)[0]!;
      const matching = this.scoped(this.contactRows, scope).filter((row) => row.channel_id === channelId && (row as unknown as Fields)[field] === value);
      matching.sort((a, b) => a.created_at.getTime() - b.created_at.getTime() || a._id.localeCompare(b._id));
      return copy(matching[0] ?? null);
    },
    findById: async (scope, id) => copy(this.byId(this.contactRows, scope, id) ?? null),
    insertIfAbsent: async (scope, contact) => {
      if (this.contactRows.some((row) => row._id === contact._id)) return false;
      this.contactRows.push(contactRow({ ...copy(contact), business_id: scope.businessId }));
      return true;
    },
    updateFields: async (scope, id, fields, now) => {
      const row = this.byId(this.contactRows, scope, id);
      if (!row) return null;
      Object.assign(row, copy(fields), { updated_at: now });
      return copy(row);
    },
  };

  readonly contactErasures: InboxRepositories['contactErasures'] = {
    exists: async (scope, id) => this.erasedContactIds.some((row) => row.business_id === scope.businessId && row.contact_id === id),
  };

  readonly conversations: InboxRepositories['conversations'] = {
    findById: async (scope, id) => copy(this.byId(this.conversationRows, scope, id) ?? null),
    findByContactId: async (scope, contactId) => copy(this.scoped(this.conversationRows, scope).find((row) => row.contact_id === contactId) ?? null),
    refreshContactSnapshot: async (scope, contactId, snapshot: ContactSnapshot) => {
      const row = this.scoped(this.conversationRows, scope).find((candidate) => candidate.contact_id === contactId);
      if (!row) return null;
      row.contact = copy(snapshot) as ConversationEntity['contact'];
      return copy(row);
    },
    createIfAbsent: async (scope, conversation) => {
      // The unique _id and the unique (business_id, contact_id) index.
      if (this.conversationRows.some((row) => row._id === conversation._id || (row.business_id === scope.businessId && row.contact_id === conversation.contact_id))) return false;
      this.conversationRows.push(conversationRow({ ...copy(conversation), business_id: scope.businessId }));
      return true;
    },
    applyInboundMessage: async (scope, id, inbound: InboundMessageApplied) => {
      const row = this.byId(this.conversationRows, scope, id);
      if (!row || row.recent_inbound_message_ids.includes(inbound.messageId)) return null;
      row.last_inbound_message_id = inbound.messageId;
      row.updated_at = inbound.now;
      if (!row.last_inbound_at || row.last_inbound_at < inbound.sentAt) row.last_inbound_at = inbound.sentAt;
      row.unread_count += 1;
      row.event_sequence += 1;
      row.recent_inbound_message_ids.push(inbound.messageId);
      if (inbound.awaitingMedia) {
        row.media_awaiting_transcription += 1;
        row.awaiting_media_message_ids.push(inbound.messageId);
      }
      row.outbox.push(copy(inbound.event) as (typeof row.outbox)[number]);
      const { outbox: _outbox, ...changed } = copy(row);
      return changed as ConversationEntity;
    },
    showLastMessage: async (scope, id, message: LastMessage, now) => {
      const row = this.byId(this.conversationRows, scope, id);
      if (!row || row.last_message?.uuid === message.uuid) return;
      if (row.last_message && row.last_message.created_at > message.created_at) return;
      Object.assign(row, { last_message: copy(message), sort_at: message.created_at, updated_at: now, ...(message.is_from_customer ? {} : { unread_count: 0 }) });
    },
    releaseAwaitingMedia: async (scope, id, messageId) => {
      const row = this.byId(this.conversationRows, scope, id);
      if (!row?.awaiting_media_message_ids.includes(messageId)) return false;
      row.awaiting_media_message_ids = row.awaiting_media_message_ids.filter((awaiting) => awaiting !== messageId);
      row.media_awaiting_transcription -= 1;
      return true;
    },
  };

  readonly messages: InboxRepositories['messages'] = {
    findById: async (scope, id) => copy(this.byId(this.messageRows, scope, id) ?? null),
    findByIds: async (scope, ids) => copy(this.scoped(this.messageRows, scope).filter((row) => ids.includes(row._id))),
    insertIfAbsent: async (scope, message) => {
      if (this.messageRows.some((row) => row._id === message._id)) return false;
      this.messageRows.push(messageRow({ ...copy(message), business_id: scope.businessId } as Parameters<typeof messageRow>[0]));
      return true;
    },
    markIngested: async (scope, id, step) => {
      const row = this.byId(this.messageRows, scope, id);
      if (row) row.ingest = { ...row.ingest, [step]: true };
    },
    findOutboundByProviderId: async (scope, providerMessageId) =>
      copy(this.scoped(this.messageRows, scope).find((row) => row.provider_message_id === providerMessageId && !row.is_from_customer) ?? null),
    applyDeliveryStatus: async (scope, id, update: DeliveryStatusUpdate, event: OutboxEntry) => {
      const row = this.byId(this.messageRows, scope, id);
      if (!row || row.is_from_customer) return false;
      if (update.replaces.includes(row.status)) {
        Object.assign(row, { status: update.status, status_at: update.at, ...(update.error ? { error: update.error } : {}), ...(update.pricing ? { pricing: update.pricing } : {}) });
        row.outbox = [...(row.outbox ?? []), copy(event)];
        return true;
      }
      // A late `sent` may be the only status that carries the pricing: kept, without an event.
      if (update.pricing && row.pricing === null) row.pricing = copy(update.pricing);
      return false;
    },
    setMediaFile: async (scope, id, file) => {
      const row = this.byId(this.messageRows, scope, id);
      if (row?.media) Object.assign(row.media, { file_uuid: file.uuid, file_name: file.name, size: file.size });
    },
    recordTranscription: async (scope, id, text) => {
      const row = this.byId(this.messageRows, scope, id);
      if (!row?.media || row.media.transcription_status === 'transcribed') return false;
      Object.assign(row, { transcription: text, media_transcription_pending: false });
      Object.assign(row.media, { transcription_status: 'transcribed', transcription_error: null });
      return true;
    },
    settleUntranscribed: async (scope, id, status: UntranscribedMediaStatus, reason) => {
      const row = this.byId(this.messageRows, scope, id);
      if (row?.media?.transcription_status === 'pending') Object.assign(row.media, { transcription_status: status, transcription_error: reason });
    },
    reopenTranscription: async (scope, id, from) => {
      const row = this.byId(this.messageRows, scope, id);
      if (row?.media?.transcription_status === from) Object.assign(row.media, { transcription_status: 'pending', transcription_error: null });
    },
  };

  readonly files: InboxRepositories['files'] = {
    findById: async (scope, id) => {
      const row = this.byId(this.fileRows, scope, id);
      if (!row) return null;
      const { bytes: _bytes, ...file } = row;
      return copy(file);
    },
  };

  /** Inbound media kept as Files keeps it: once per uuid, the first delivery's bytes. */
  readonly mediaFiles: InboundMediaFiles = {
    storeInboundMedia: async (scope: BusinessScope, input: InboundMediaInput) => {
      const parts: Buffer[] = [];
      const existing = this.byId(this.fileRows, scope, input.fileUuid);
      if (!existing) {
        for await (const chunk of input.content) parts.push(Buffer.from(chunk));
        const bytes = Buffer.concat(parts);
        const now = new Date('2026-03-02T12:00:00Z');
        this.fileRows.push({
          _id: input.fileUuid,
          business_id: scope.businessId,
          module: 'inbound_media',
          status: 'confirmed',
          file_name: input.fileName,
          mime_type: input.mimeType.split(';')[0]!.trim().toLowerCase(),
          category: 'other',
          size: bytes.length,
          content_id: null,
          upload: { state: 'complete', attempt_id: null, content_id: null, received_bytes: bytes.length, sniffed_mime_types: [], sha256: null, started_at: null, finished_at: now },
          pending_expires_at: null,
          message_id: input.messageId,
          created_at: now,
          confirmed_at: now,
          updated_at: now,
          bytes,
        });
      }
      return (await this.files.findById(scope, input.fileUuid))!;
    },
    readContent: async (file, maxBytes) => this.fileRows.find((row) => row._id === (file as FileEntity)._id)?.bytes.subarray(0, maxBytes) ?? Buffer.alloc(0),
  };

  message(id: string): MessageEntity | undefined {
    return this.messageRows.find((row) => row._id === id);
  }

  conversation(id: string): ConversationEntity | undefined {
    return this.conversationRows.find((row) => row._id === id);
  }

  private scoped<Entity extends { business_id: string }>(rows: Entity[], scope: BusinessScope): Entity[] {
    return rows.filter((row) => row.business_id === scope.businessId);
  }

  private byId<Entity extends { _id: string; business_id: string }>(rows: Entity[], scope: BusinessScope, id: string): Row<Entity> | undefined {
    return rows.find((row) => row._id === id && row.business_id === scope.businessId);
  }
}

export interface RecordedEvent {
  collection: OutboxCollection;
  businessId: string;
  documentId: string;
  entry: OutboxEntry;
}

/** The provider's media endpoint, serving what a spec put there; `failNext` makes the next lookup fail. */
export class FakeMediaSource implements MediaSource {
  readonly media = new Map<string, { bytes: Buffer; mime_type: string; file_size?: number }>();
  readonly lookups: { mediaId: string; accessToken: string }[] = [];
  private failures: Error[] = [];

  failNext(error: Error): void {
    this.failures.push(error);
  }

  async getMediaUrl(mediaId: string, accessToken: string): Promise<MediaInfo> {
    this.lookups.push({ mediaId, accessToken });
    const failure = this.failures.shift();
    if (failure) throw failure;
    const found = this.media.get(mediaId);
    if (!found) throw new Error(`no media ${mediaId}`);
    return { url: `https://media.example/${mediaId}`, mime_type: found.mime_type, file_size: found.file_size ?? found.bytes.length };
  }

  async downloadMedia(url: string): Promise<MediaDownload> {
    const found = this.media.get(url.slice(url.lastIndexOf('/') + 1))!;
    return { stream: Readable.from([found.bytes]), mime_type: found.mime_type, content_length: found.bytes.length };
  }
}

/** The AI provider's media calls: an image is described as `image of <n> bytes` for 120 tokens, audio as `audio: <its text>`. */
export class FakeTranscriber implements MediaTranscriber {
  readonly calls: string[] = [];
  private failures: Error[] = [];

  failNext(error: Error): void {
    this.failures.push(error);
  }

  async describeImage(imageUrl: string, model: string): Promise<{ text: string; usage: { total_tokens: number } }> {
    this.calls.push(`describeImage:${model}`);
    const failure = this.failures.shift();
    if (failure) throw failure;
    return { text: `image of ${Buffer.from(imageUrl.slice(imageUrl.indexOf(',') + 1), 'base64').length} bytes`, usage: { total_tokens: 120 } };
  }

  async transcribeAudio(audio: Buffer, fileName: string): Promise<{ text: string }> {
    this.calls.push(`transcribeAudio:${fileName}`);
    const failure = this.failures.shift();
    if (failure) throw failure;
    return { text: `audio: ${audio.toString('utf8')}` };
  }
}

const silentLogger = { info: () => undefined, warn: () => undefined, error: () => undefined, debug: () => undefined } as unknown as Logger;

/** Everything InboxIngest needs, in memory, with what it recorded kept for assertions. */
export function inMemoryInbox(now = new Date('2026-03-02T12:00:00Z')) {
  const repositories = new InMemoryInboxRepositories();
  const recorded: RecordedEvent[] = [];
  const aiRuns: { key: string; command: AiRunCommand }[] = [];
  const consents: { businessId: string; update: KeywordConsent }[] = [];
  const progress: string[] = [];
  const aiEmployeeNames = new Map<string, string>();
  const media = new FakeMediaSource();
  const transcriber = new FakeTranscriber();
  const clock = { at: now };
  const dependencies: InboxIngestDependencies = {
    repositories,
    messageAuthors: async (_scope, author): Promise<OutboxAuthor> => {
      if (!author) return { type: 'system', uuid: null, name: null };
      const uuid = author.uuid ?? null;
      return { type: author.type, uuid, name: author.name ?? (uuid ? (aiEmployeeNames.get(uuid) ?? null) : null) };
    },
    files: repositories.mediaFiles,
    media,
    transcriber,
    options: { visionModel: 'vision-1', speechTranscriptionCost: 50, maxAttempts: 3 },
    aiRuns: {
      submit: async (key, command) => {
        aiRuns.push({ key, command: copy(command) });
      },
    },
    events: {
      recordQuietly: async (collection, scope, documentId, entries) => {
        for (const entry of entries) recorded.push({ collection, businessId: scope.businessId, documentId, entry: copy(entry) });
      },
    },
    logger: silentLogger,
    now: () => new Date(clock.at),
    templateStatuses: { channels: { findByBusinessAccountIdAcrossBusinesses: async () => [] }, templates: { setStatusOnChannel: async () => 0 } },
    userPreferences: repositories,
    recordConsent: async (scope, update) => {
      consents.push({ businessId: scope.businessId, update: copy(update) });
    },
    broadcastProgress: {
      delivered: async (scope, messageId, status) => {
        progress.push(`delivered ${scope.businessId} ${messageId} ${status}`);
      },
      replied: async (scope, conversationId, since) => {
        progress.push(`replied ${scope.businessId} ${conversationId} ${since.toISOString()}`);
      },
    },
  };
  return { dependencies, repositories, recorded, aiRuns, consents, progress, aiEmployeeNames, media, transcriber, clock };
}
