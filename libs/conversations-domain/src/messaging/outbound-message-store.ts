import { CatalogError, isErrorCode } from '@cmsg/errors';
import { type BusinessScope, ConversationModel, MessageModel, scopedFilter, isDuplicateKeyError } from '@cmsg/dal';
import type { MessageAuthor } from './send-message.command';

/** sending: claimed, provider call under way (or cut off by a crash); the rest are final. */
export type OutboundStatus = 'sending' | 'sent' | 'simulated' | 'failed';

export interface StoredOutboundMessage {
  _id: string;
  conversation_id: string;
  body: string;
  content_type: string;
  status: OutboundStatus;
  created_at: Date;
  sending_started_at: Date | null;
  operation_parts: number | null;
  error: { code: string; message: string } | null;
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
  createdAt: Date;
  /** sending for a real send (settled after the provider call), simulated for a tester conversation. */
  status: 'sending' | 'simulated';
}

const OUTCOME_UNKNOWN =
  'Sending to the chat channel was interrupted (the service stopped during the provider call); the outcome is unknown, so the message is not sent again.';
const SETTLE_POLL_MS = 200;
/**
 * Outbound messages of a business, written so that an operation reaches the customer at most once:
 * the message is inserted (unique _id) before the provider call and settled after it. Single-
 * document atomic writes only (no transactions on FerretDB).
 */
export class OutboundMessageStore {
  constructor(
    private readonly scope: BusinessScope,
    /** A send still `sending` this long after it started was cut off by a crash. */
    private readonly inFlightLeaseMs: number,
    private readonly realNow: () => number = Date.now,
  ) {}

  find(id: string): Promise<StoredOutboundMessage | null> {
    return MessageModel.findOne(scopedFilter(this.scope, { _id: id, is_from_customer: false })).lean<StoredOutboundMessage>();
  }

  /** Inserts the message; false when it already exists (an earlier or concurrent attempt). */
  async insert(message: NewOutboundMessage): Promise<boolean> {
    try {
      await MessageModel.create({
        _id: message.id,
        business_id: this.scope.businessId,
        conversation_id: message.conversationId,
        is_from_customer: false,
        body: message.body,
        content_type: message.contentType,
        transcription: message.transcription ?? null,
        status: message.status,
        is_simulated: message.status === 'simulated',
        created_at: message.createdAt,
        author: message.author,
        operation_id: message.operationId,
        operation_part: message.part,
        operation_parts: message.parts,
        sending_started_at: message.status === 'sending' ? new Date(this.realNow()) : null,
      });
      return true;
    } catch (error) {
      if (isDuplicateKeyError(error)) return false;
      throw error;
    }
  }

  /** Answers the message as stored after the update. */
  markSent(id: string, providerMessageId: string): Promise<StoredOutboundMessage | null> {
    // Unconditional: the provider accepted it, whatever a repeat concluded meanwhile.
    return MessageModel.findOneAndUpdate(
      scopedFilter(this.scope, { _id: id, is_from_customer: false }),
      { $set: { status: 'sent', provider_message_id: providerMessageId, error: null } },
      { new: true },
    ).lean<StoredOutboundMessage>();
  }

  async markFailed(id: string, error: CatalogError): Promise<void> {
    await MessageModel.updateOne(scopedFilter(this.scope, { _id: id, status: 'sending' }), {
      $set: { status: 'failed', error: { code: error.code, message: error.message } },
    });
  }

  /** Forgets a claim the provider never saw, so a later repeat may try again. */
  async discard(id: string): Promise<void> {
    await MessageModel.deleteOne(scopedFilter(this.scope, { _id: id, status: 'sending' }));
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
        await MessageModel.updateOne(scopedFilter(this.scope, { _id: current._id, status: 'sending' }), {
          $set: { status: 'failed', error: { code: 'SEND_FAILED', message: OUTCOME_UNKNOWN } },
        });
      } else {
        await new Promise((resolve) => setTimeout(resolve, Math.min(SETTLE_POLL_MS, remaining)));
      }
      current = await this.find(current._id);
    }
    if (!current) throw new CatalogError('UPDATE_FAILED', `Outbound message ${message._id} disappeared while it was being sent; retry.`);
    return current;
  }

  /**
   * The conversation after an outbound message: last message, sort key and a reset unread count.
   * Guarded by time so that a repeat or a late settle never hides a newer message; the window is
   * untouched (only the customer opens it).
   */
  async recordOnConversation(message: StoredOutboundMessage): Promise<void> {
    await ConversationModel.updateOne(
      scopedFilter(this.scope, {
        _id: message.conversation_id,
        $or: [{ last_message: null }, { 'last_message.created_at': { $lte: message.created_at } }],
      }),
      {
        $set: {
          last_message: { uuid: message._id, body: message.body, content_type: message.content_type, is_from_customer: false, created_at: message.created_at },
          sort_at: message.created_at,
          unread_count: 0,
          updated_at: new Date(this.realNow()),
        },
      },
    );
  }
}

/** The catalog error a failed message was stored with, raised again for a repeat. */
export function storedFailure(message: StoredOutboundMessage): CatalogError {
  const code = message.error?.code;
  return new CatalogError(isErrorCode(code) ? code : 'SEND_FAILED', message.error?.message || undefined);
}
