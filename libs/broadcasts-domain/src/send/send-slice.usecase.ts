import type { BroadcastEntity, BroadcastPauseReason, BroadcastRecipientEntity, BusinessScope, RecipientSendOutcome } from '@cmsg/dal';
import { CatalogError, isCatalogError } from '@cmsg/errors';
import type { BroadcastClock, BroadcastEvents, BroadcastStore, SendSlice } from '../core/broadcast-ports';
import type { BroadcastStates } from '../core/broadcast-states';
import { businessScopeOf } from '../core/scope';
import { recipientOperationId } from '../core/send-operation';
import { isInsideWindow } from '../send-window';
import { pauseBroadcast, pauseChannelBroadcasts } from '../state/change-broadcast-state.usecase';

/** One recipient's template send, through the conversations service (SendMessage with broadcast priority). */
export interface BroadcastSendRequest {
  conversationId: string;
  operationId: string;
  broadcast: { uuid: string; maxPerSecond: number };
  template: { uuid: string };
  variables: { index: number; value: string }[];
  header: Record<string, unknown> | null;
  buttonParameters: { index: number; sub_type: string; value: string }[];
}

export interface SenderPorts {
  store: BroadcastStore;
  events: BroadcastEvents;
  clock: BroadcastClock;
  /** The broadcasts' states as this process last read them (recentBroadcastStates): one read per broadcast per 250 ms, however many slices it sends; a pause stops the slices within that. */
  states: BroadcastStates;
  /** Answers the sent message's uuid; throws the send's catalog error. */
  sendTemplate(scope: BusinessScope, request: BroadcastSendRequest): Promise<{ messageId: string }>;
}

export interface SliceResult {
  sent: number;
  /** Why the slice stopped early: the broadcast is not running, a pause, or the conversations service is unreachable. */
  stopped: 'not_running' | 'outside_window' | 'paused' | 'unavailable' | null;
}

/**
 * Sends a slice (docs/broadcasts.md): each pending recipient is claimed, sent once, and given its
 * final state. `concurrency` recipients are in flight at once. A slice of an older dispatch epoch is
 * dropped (a newer dispatch covers every pending recipient).
 */
export async function sendSlice(ports: SenderPorts, slice: SendSlice, options: { concurrency: number }): Promise<SliceResult> {
  const scope = businessScopeOf(slice);
  const state = () => ports.states(scope, slice.broadcast_id);
  const first = await state();
  if (!first || first.status !== 'running' || slice.epoch < first.dispatch_epoch) return { sent: 0, stopped: 'not_running' };
  const recipients = await ports.store.recipients.findPendingInRange(scope, slice.broadcast_id, slice.from_seq, slice.to_seq);
  const result: SliceResult = { sent: 0, stopped: null };
  let next = 0;
  const worker = async (): Promise<void> => {
    while (result.stopped === null && next < recipients.length) {
      const recipient = recipients[next++]!;
      const broadcast = await state();
      if (!broadcast || broadcast.status !== 'running') {
        result.stopped = 'not_running';
        return;
      }
      if (broadcast.send_window && !isInsideWindow(broadcast.send_window, broadcast.time_zone, ports.clock.now())) {
        result.stopped = 'outside_window';
        return;
      }
      const outcome = await sendRecipient(ports, scope, broadcast, recipient);
      if (outcome === 'sent') result.sent += 1;
      else if (outcome !== 'done') result.stopped = outcome;
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, options.concurrency) }, worker));
  return result;
}

type RecipientResult = 'sent' | 'done' | 'paused' | 'unavailable';

async function sendRecipient(ports: SenderPorts, scope: BusinessScope, broadcast: BroadcastEntity, pending: BroadcastRecipientEntity): Promise<RecipientResult> {
  const recipient = await ports.store.recipients.claim(scope, pending._id, ports.clock.now());
  if (!recipient) return 'done';
  if (!recipient.conversation_id) {
    await ports.store.recipients.finish(scope, recipient._id, failed(new CatalogError('CONVERSATION_NOT_FOUND', 'The contact has no conversation.')));
    return 'done';
  }
  try {
    const { messageId } = await ports.sendTemplate(scope, {
      conversationId: recipient.conversation_id,
      operationId: recipientOperationId(recipient),
      broadcast: { uuid: broadcast._id, maxPerSecond: broadcast.max_per_second ?? 0 },
      template: { uuid: broadcast.template.uuid },
      variables: recipient.variables,
      header: broadcast.header,
      buttonParameters: broadcast.button_parameters,
    });
    await ports.store.recipients.finish(scope, recipient._id, { status: 'sent', message_id: messageId, sent_at: ports.clock.now() });
    return 'sent';
  } catch (error) {
    return settleFailure(ports, scope, broadcast, recipient, error);
  }
}

/** Pauses that the send engine or the provider call for: the recipient goes back to pending. */
const PAUSES: Record<string, { reason: BroadcastPauseReason; nextAttempt: boolean }> = {
  MESSAGING_LIMIT_REACHED: { reason: 'messaging_limit', nextAttempt: false },
  TEMPLATE_NOT_APPROVED: { reason: 'template_not_approved', nextAttempt: false },
};
const SPAM_RATE_LIMIT = '131048';

async function settleFailure(ports: SenderPorts, scope: BusinessScope, broadcast: BroadcastEntity, recipient: BroadcastRecipientEntity, error: unknown): Promise<RecipientResult> {
  if (!isCatalogError(error) || error.code === 'SERVICE_UNAVAILABLE') {
    // The call may or may not have reached the service: the claim stays, the coordinator settles it from the message.
    return 'unavailable';
  }
  const pause = error.providerCode === SPAM_RATE_LIMIT ? { reason: 'spam_rate_limit' as const, nextAttempt: true } : PAUSES[error.code];
  if (pause) {
    await ports.store.recipients.release(scope, recipient._id, pause.nextAttempt);
    if (pause.reason === 'spam_rate_limit') await pauseChannelBroadcasts(ports, scope, broadcast.channel_id, pause.reason);
    else await pauseBroadcast(ports, scope, broadcast, pause.reason);
    return 'paused';
  }
  if (error.code === 'BROADCAST_STATE_CONFLICT') {
    // Paused or cancelled while this send waited for its slot: nothing was sent.
    await ports.store.recipients.release(scope, recipient._id, false);
    return 'paused';
  }
  if (error.code === 'CONTACT_OPTED_OUT' && error.providerCode === undefined) {
    // Refused before any call: the contact opted out after the audience was frozen.
    await ports.store.recipients.finish(scope, recipient._id, { status: 'skipped', reason: 'opted_out' });
    return 'done';
  }
  if (error.code === 'SEND_FAILED' && error.providerCode === null) {
    await ports.store.recipients.finish(scope, recipient._id, { status: 'unknown' });
    return 'done';
  }
  await ports.store.recipients.finish(scope, recipient._id, failed(error));
  return 'done';
}

function failed(error: CatalogError): RecipientSendOutcome {
  return { status: 'failed', error: { code: error.code, message: error.message, provider_code: error.providerCode ?? null } };
}
