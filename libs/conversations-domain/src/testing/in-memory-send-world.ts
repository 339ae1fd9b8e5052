import type { ChannelCredentials, OutboundMessage, SendMessageResult } from '@cmsg/chat-platform';
import { type BusinessScope, type ChannelEntity, type PaymentEntity, type QuickReplyEntity, type TemplateEntity, nameLookupKey } from '@cmsg/dal';
import { CatalogError } from '@cmsg/errors';
import { messageAuthors } from '@cmsg/events';
import type { FileForSend } from '@cmsg/files';
import { type ClaimBeforeCall, SendAlreadyClaimed, type SendPacing } from '@cmsg/send-engine';
import type { MessageSender } from '../messaging/message-sender';
import type { SendMessageDependencies } from '../messaging/send-message.usecase';
import { leaseOnly } from '../messaging/send-lease';
import { InMemoryAiEmployees } from './in-memory-ai-employees';
import { InMemoryBusinesses } from './in-memory-businesses';
import { InMemoryConversationLookup } from './in-memory-conversations';
import { InMemoryNamedObjects } from './in-memory-named-objects';
import { InMemoryConversationLastMessages, InMemoryOutboundMessages } from './in-memory-outbound-messages';
import { RecordingOutbox } from './recording-outbox';

export interface ProviderCall {
  channel: ChannelCredentials;
  message: OutboundMessage;
  pacing: SendPacing | undefined;
}

/**
 * The chat platform as the send engine presents it: takes the send's claim first (SendAlreadyClaimed
 * when another attempt holds it), then answers `respond`'s result or throws its error.
 */
export class RecordingSender implements MessageSender {
  readonly calls: ProviderCall[] = [];
  respond: (call: ProviderCall) => SendMessageResult = () => ({ provider_message_id: `wamid.${this.calls.length}` });
  /** Thrown before the claim is taken (a refusal of the send engine: nothing stored, nothing sent). */
  refuseBeforeClaim: Error | undefined;

  async sendMessage(channel: ChannelCredentials, message: OutboundMessage, pacing?: SendPacing, claim?: ClaimBeforeCall): Promise<SendMessageResult> {
    if (this.refuseBeforeClaim) throw this.refuseBeforeClaim;
    if (claim && !(await claim.take(`fence-${this.calls.length + 1}`))) throw new SendAlreadyClaimed();
    const call = { channel, message, pacing };
    this.calls.push(call);
    return this.respond(call);
  }
}

type QuickReplyRow = QuickReplyEntity & { _id: string; business_id: string; name_key: string };

export function quickReplyRow(fields: { _id: string; business_id: string; name: string; actions: string[] }): QuickReplyRow {
  return { ...fields, name_key: nameLookupKey(fields.name), actions: fields.actions.map((text) => ({ text })) } as QuickReplyRow;
}

/** Everything SendMessage reads and writes, in memory, on one fixed real clock. */
export class InMemorySendWorld {
  readonly lookup = new InMemoryConversationLookup();
  readonly businesses = new InMemoryBusinesses();
  readonly channels: ChannelEntity[] = [];
  readonly messages = new InMemoryOutboundMessages();
  readonly lastMessages = new InMemoryConversationLastMessages(this.lookup);
  readonly templates: TemplateEntity[] = [];
  readonly quickReplies = new InMemoryNamedObjects<QuickReplyRow>();
  readonly payments: PaymentEntity[] = [];
  readonly aiEmployees = new InMemoryAiEmployees();
  readonly files = new Map<string, FileForSend>();
  readonly sender = new RecordingSender();
  readonly outbox = new RecordingOutbox();

  constructor(readonly realNow: number) {}

  dependencies(overrides: Partial<SendMessageDependencies> = {}): SendMessageDependencies {
    const inBusiness = <Row extends { business_id?: string | null }>(scope: BusinessScope, rows: Row[]) => rows.filter((row) => row.business_id === scope.businessId);
    return {
      lookup: this.lookup,
      businesses: this.businesses,
      channels: { findById: async (scope, id) => inBusiness(scope, this.channels).find((row) => row._id === id) ?? null },
      messages: this.messages,
      conversationMessages: this.lastMessages,
      authors: messageAuthors(this.aiEmployees),
      templates: {
        findById: async (scope, id) => inBusiness(scope, this.templates).find((row) => row._id === id) ?? null,
        findByNameAndLanguage: async (scope, name, language) => inBusiness(scope, this.templates).filter((row) => row.name === name && row.language === language),
      },
      quickReplies: this.quickReplies,
      payments: {
        findById: async (scope, id) => inBusiness(scope, this.payments).find((row) => (row as { _id?: string })._id === id) ?? null,
        findLatestOpenOfConversation: async (scope, conversationId) =>
          inBusiness(scope, this.payments)
            .filter((row) => row.conversation_id === conversationId && row.status === 'open')
            .sort((a, b) => b.created_at.getTime() - a.created_at.getTime())[0] ?? null,
      },
      sender: this.sender,
      files: {
        fileForSend: async (_scope, uuid) => {
          const file = this.files.get(uuid);
          if (!file) throw new CatalogError('FILE_NOT_FOUND');
          return file;
        },
      },
      outbox: this.outbox,
      lease: leaseOnly(60_000),
      realNow: () => this.realNow,
      ...overrides,
    };
  }
}
