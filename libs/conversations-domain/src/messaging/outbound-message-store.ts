import { CatalogError, isErrorCode } from '@cmsg/errors';
import type { BusinessScope, MessageEntity } from '@cmsg/dal';
import { repositories } from '../repositories';
import type { MessageAuthor } from './send-message.command';

/** sending: claimed, provider call under way (or cut off by a crash); the rest are final. */
export type OutboundStatus = 'sending' | 'sent' | 'simulated' | 'failed';

/** An outbound message as stored; its status is an OutboundStatus. */
export type StoredOutboundMessage = MessageEntity;

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
}

const OUTCOME_UNKNOWN =
  'Sending to the chat channel was interrupted (the service stopped during the provider call); the outcome is unknown, so the message is not sent again.';
const SETTLE_POLL_MS = 200;

/**
 * Outbound messages of a business, written so that an operation reaches the customer at most once:
 * the message is inserted (unique _id) before the provider call and settled after it.
 */
export class OutboundMessageStore {
  constructor(
    private readonly scope: BusinessScope,
    /** A send still `sending` this long after it started was cut off by a crash. */
    private readonly inFlightLeaseMs: number,
    private readonly realNow: () => number = Date.now,
  ) {}

  find(id: string): Promise<StoredOutboundMessage | null> {
    return repositories.messages.findOutbound(this.scope, id);
  }

  /** Inserts the message; false when it already exists (an earlier or concurrent attempt). */
  insert(message: NewOutboundMessage): Promise<boolean> {
    return repositories.messages.insertIfAbsent(this.scope, {
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
    });
  }

  /** Answers the message as stored after the update. */
  markSent(id: string, providerMessageId: string): Promise<StoredOutboundMessage | null> {
    return repositories.messages.markSent(this.scope, id, providerMessageId);
  }

  markFailed(id: string, error: CatalogError): Promise<void> {
    return repositories.messages.markFailedIfSending(this.scope, id, { code: error.code, message: error.message });
  }

  /** Forgets a claim the provider never saw, so a later repeat may try again. */
  discard(id: string): Promise<void> {
    return repositories.messages.deleteIfSending(this.scope, id);
  }

  /**
   * The final state of a message found `sending`. While its lease runs the first attempt may still
   * finish, so this waits for it; past the lease the attempt was cut off by a crash. Whether the
   * provider got it is then unknowable, and a duplicate to the customer is worse than a missing
   * message: it is settled as failed (SEND_FAILED), never sent again.
   */
  async settle(message: StoredOutboundMessage): Promise<StoredOutboundMessage> {
    let current: StoredOutboundMessage | null = message;
    while (current?.status === 'sending') {
      const leaseEnd = (current.sending_started_at?.getTime() ?? 0) + this.inFlightLeaseMs;
      const remaining = leaseEnd - this.realNow();
      if (remaining <= 0) {
        await repositories.messages.markFailedIfSending(this.scope, current._id, { code: 'SEND_FAILED', message: OUTCOME_UNKNOWN });
      } else {
        await new Promise((resolve) => setTimeout(resolve, Math.min(SETTLE_POLL_MS, remaining)));
      }
      current = await this.find(current._id);
    }
    if (!current) throw new CatalogError('UPDATE_FAILED', `Outbound message ${message._id} disappeared while it was being sent; retry.`);
    return current;
  }

  /**
   * The conversation after an outbound message: last message, sort key and a reset unread count,
   * unless a newer message is shown already (a repeat or a late settle never hides a newer one);
   * the window is untouched (only the customer opens it).
   */
  recordOnConversation(message: StoredOutboundMessage): Promise<void> {
    return repositories.conversations.showLastMessage(
      this.scope,
      message.conversation_id,
      { uuid: message._id, body: message.body ?? '', content_type: message.content_type, is_from_customer: false, created_at: message.created_at },
      new Date(this.realNow()),
    );
  }
}

/** The catalog error a failed message was stored with, raised again for a repeat. */
export function storedFailure(message: StoredOutboundMessage): CatalogError {
  const code = message.error?.code;
  return new CatalogError(isErrorCode(code) ? code : 'SEND_FAILED', message.error?.message || undefined);
}
