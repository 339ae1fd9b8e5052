import type { BroadcastRecipientEntity, BusinessScope, RecipientError } from '@cmsg/dal';

/** The send's operation id: the message id derives from it, so one attempt can only ever make one provider call. */
export function recipientOperationId(recipient: Pick<BroadcastRecipientEntity, '_id' | 'attempt'>): string {
  return `broadcast:${recipient._id}:${recipient.attempt}`;
}

/** What the message of an operation says about its send. */
export type MessageSendOutcome =
  | { kind: 'absent' }
  | { kind: 'in_flight' }
  | { kind: 'sent'; message_id: string; sent_at: Date }
  | { kind: 'failed'; message_id: string; error: RecipientError };

/** The conversations service's message store, asked about a claimed recipient's send. */
export type SendOutcomeLookup = (scope: BusinessScope, operationId: string) => Promise<MessageSendOutcome>;
