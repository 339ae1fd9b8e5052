import { CatalogError, isErrorCode } from '@cmsg/errors';
import type { BusinessScope, LastMessage, MessageEntity, OutboxAuthor, OutboxEntry, StoredError } from '@cmsg/dal';
import { type MessageItemSource, type OutboxRecorder, messageTimelineItem, outboxEntry, withSequence } from '@cmsg/events';
import type { OutboundMessagePorts } from './send-message-ports';
import { type SendLease, isCutOff } from './send-lease';

import type { MessageAuthor } from './send-message.command';

/** sending: claimed, provider call under way (or cut off by a crash); the rest are final. */
export type OutboundStatus = 'sending' | 'sent' | 'simulated' | 'failed';

/** An outbound message as stored; its status is an OutboundStatus. */
export type StoredOutboundMessage = MessageEntity;

/** What the store writes through, and when a send still `sending` was cut off by a crash. */
export interface OutboundStorePorts extends OutboundMessagePorts {
  outbox: OutboxRecorder;
  lease: SendLease;
}

export interface NewOutboundMessage {
  id: string;
  conversationId: string;
  operationId: string;
  part: number;
  parts: number;
  author: MessageAuthor;
  body: string;
  contentType: string;
  transcription?: string;
  /** The upload a media message sends. */
  file?: { uuid: string; mimeType: string };
  createdAt: Date;
  /** sending for a real send (settled after the provider call), simulated for a tester conversation. */
  status: 'sending' | 'simulated';
  /** A real send's claim: the id of its attempt's call fence (ClaimBeforeCall). */
  callFence?: string;
}

const OUTCOME_UNKNOWN =
  'Sending to the chat channel was interrupted (the service stopped during the provider call); the outcome is unknown, so the message is not sent again.';
const SETTLE_POLL_MS = 200;

/**
 * Outbound messages of a business, written so that an operation reaches the customer at most once:
 * the message is inserted (unique _id) before the provider call and settled after it. Each write
 * that sends (or simulates) or fails a message carries its message.sent or message.status_updated
 * entry (docs/events.md), recorded right after it.
 */
export class OutboundMessageStore {
  constructor(
    private readonly scope: BusinessScope,
    private readonly ports: OutboundStorePorts,
    private readonly realNow: () => number = Date.now,
  ) {}

  find(id: string): Promise<StoredOutboundMessage | null> {
    return this.ports.messages.findOutbound(this.scope, id);
  }

  /** Inserts the message (a simulated one with its message.sent entry); false when it already exists (an earlier or concurrent attempt). */
  async insert(message: NewOutboundMessage, author: OutboxAuthor): Promise<boolean> {
    const event = message.status === 'simulated' ? this.messageEvent('message.sent', itemSourceOf(message), author, {}) : undefined;
    const inserted = await this.ports.messages.insertIfAbsent(this.scope, {
      _id: message.id,
      conversation_id: message.conversationId,
      is_from_customer: false,
      body: message.body,
      content_type: message.contentType,
      transcription: message.transcription ?? null,
      outbound_file: message.file ? { file_uuid: message.file.uuid, mime_type: message.file.mimeType } : null,
      status: message.status,
      is_simulated: message.status === 'simulated',
      created_at: message.createdAt,
      author: message.author,
      operation_id: message.operationId,
      operation_part: message.part,
      operation_parts: message.parts,
      sending_started_at: message.status === 'sending' ? new Date(this.realNow()) : null,
      sending_process: message.status === 'sending' ? this.ports.lease.processId : null,
      sending_fence: message.status === 'sending' ? (message.callFence ?? null) : null,
      ...(event ? { outbox: [event] } : {}),
    });
    if (inserted && event) await this.ports.outbox.recordQuietly('messages', this.scope, message.id, [event]);
    return inserted;
  }

  /**
   * sending -> sent, then the message is shown on its conversation by the update that takes the
   * sequence of its message.sent entry, recorded last. Answers the message as stored after the update.
   */
  async markSent(message: NewOutboundMessage, providerMessageId: string, author: OutboxAuthor): Promise<StoredOutboundMessage | null> {
    const event = this.messageEvent('message.sent', itemSourceOf(message), author, { status: 'sent' });
    const stored = await this.ports.messages.markSent(this.scope, message.id, providerMessageId, event);
    if (!stored) return null;
    const shown = await this.ports.conversationMessages.showLastMessageTakingSequence(this.scope, stored.conversation_id, lastMessageOf(stored), new Date(this.realNow()));
    await this.ports.outbox.recordQuietly('messages', this.scope, message.id, [shown ? withSequence(event, shown) : event]);
    return stored;
  }

  async markFailed(message: NewOutboundMessage, error: CatalogError, author: OutboxAuthor): Promise<void> {
    await this.failIfSending(itemSourceOf(message), { code: error.code, message: error.message, provider_code: error.providerCode ?? null }, author);
  }

  /** Forgets a claim the provider never saw, so a later repeat may try again. */
  discard(id: string): Promise<void> {
    return this.ports.messages.deleteIfSending(this.scope, id);
  }

  /**
   * The final state of a message found `sending`. While the first attempt may still finish, this
   * waits for it. Once it was cut off by a crash (its process stopped, or its lease is over: see
   * isCutOff) before its provider call, which its call fence proves, the claim is forgotten and this
   * answers null, as it does for a claim forgotten meanwhile: the send is to be made again. Cut off
   * at any later point, whether the provider got it is unknowable, and a duplicate to the customer
   * is worse than a missing message: it is settled as failed (SEND_FAILED), never sent again.
   */
  async settle(message: StoredOutboundMessage): Promise<StoredOutboundMessage | null> {
    let current: StoredOutboundMessage | null = message;
    while (current?.status === 'sending') {
      const remaining = (current.sending_started_at?.getTime() ?? 0) + this.ports.lease.ms - this.realNow();
      if (await this.isCutOff(current)) {
        if (await this.tookOverBeforeCall(current)) {
          await this.discard(current._id);
          return null;
        }
        await this.failIfSending(current, { code: 'SEND_FAILED', message: OUTCOME_UNKNOWN, provider_code: null }, await this.ports.authors(this.scope, current.author ?? null));
      } else {
        await new Promise((resolve) => setTimeout(resolve, Math.min(SETTLE_POLL_MS, remaining)));
      }
      current = await this.find(current._id);
    }
    // Gone: a claim forgotten by its sender (refused before any call) or by another recovery.
    return current;
  }

  /** Whether a message found `sending` was cut off by a crash (see settle). */
  isCutOff(message: StoredOutboundMessage): Promise<boolean> {
    return isCutOff(message, this.ports.lease, this.realNow());
  }

  /** A cut-off send whose call fence this took down: it never called the provider, and never will. */
  private async tookOverBeforeCall(message: StoredOutboundMessage): Promise<boolean> {
    const conversation = await this.ports.conversationMessages.findById(this.scope, message.conversation_id);
    if (!conversation) return false;
    // Claims made before their fence's id was recorded had a fence named after their message.
    return this.ports.lease.takeOverUncalled({ channelId: conversation.channel_id, fenceId: message.sending_fence ?? message._id }).catch(() => false);
  }

  /**
   * The conversation after an outbound message: last message, sort key and a reset unread count,
   * unless a newer message is shown already (a repeat or a late settle never hides a newer one);
   * the window is untouched (only the customer opens it).
   */
  recordOnConversation(message: StoredOutboundMessage): Promise<void> {
    return this.ports.conversationMessages.showLastMessage(this.scope, message.conversation_id, lastMessageOf(message), new Date(this.realNow()));
  }

  /** sending -> failed with its message.status_updated entry, recorded when this call settled it. */
  private async failIfSending(message: OutboundItemSource, error: StoredError, author: OutboxAuthor): Promise<void> {
    const event = this.messageEvent('message.status_updated', message, author, { status: 'failed', error });
    if (await this.ports.messages.markFailedIfSending(this.scope, message._id, error, event)) {
      await this.ports.outbox.recordQuietly('messages', this.scope, message._id, [event]);
    }
  }

  /** The entry of a change of the message: its timeline item as it is after the change. */
  private messageEvent(type: 'message.sent' | 'message.status_updated', message: OutboundItemSource, author: OutboxAuthor, change: Partial<MessageItemSource>): OutboxEntry {
    return outboxEntry(type, message.conversation_id, messageTimelineItem({ ...message, ...change }, author), author, new Date(this.realNow()));
  }
}

function lastMessageOf(message: StoredOutboundMessage): LastMessage {
  return { uuid: message._id, body: message.body ?? '', content_type: message.content_type, is_from_customer: false, created_at: message.created_at };
}

/** A message as its event items are built from it, with its conversation. */
type OutboundItemSource = MessageItemSource & { conversation_id: string };

function itemSourceOf(message: NewOutboundMessage): OutboundItemSource {
  return {
    _id: message.id,
    conversation_id: message.conversationId,
    is_from_customer: false,
    body: message.body,
    content_type: message.contentType,
    status: message.status,
    created_at: message.createdAt,
    transcription: message.transcription ?? null,
    outbound_file: message.file ? { file_uuid: message.file.uuid, mime_type: message.file.mimeType } : null,
  };
}

/** The catalog error a failed message was stored with, raised again for a repeat (with the provider's code: it is a send's failure). */
export function storedFailure(message: StoredOutboundMessage): CatalogError {
  const code = message.error?.code;
  return new CatalogError(isErrorCode(code) ? code : 'SEND_FAILED', message.error?.message || undefined, { providerCode: message.error?.provider_code ?? null });
}
