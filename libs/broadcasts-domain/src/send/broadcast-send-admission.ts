import { type BroadcastEntity, businessScope } from '@cmsg/dal';
import { CatalogError } from '@cmsg/errors';
import type { BroadcastStates } from '../core/broadcast-states';

/** One broadcast send that waited for its slot, about to call the provider. */
export interface WaitingBroadcastSend {
  businessId: string;
  broadcastId: string;
}

/**
 * Whether a send that already holds its messaging unit may still go out: while the broadcast runs,
 * and while it is paused for the messaging limit, since that pause is about the sends still without
 * a unit (the pause of the recipient that found none must not turn back the sends that took the
 * last ones: they would free them, resume the broadcast and race the same way again).
 */
export function admitsWaitingSend(broadcast: Pick<BroadcastEntity, 'status' | 'pause_reason'> | null): boolean {
  return broadcast?.status === 'running' || (broadcast?.status === 'paused' && broadcast.pause_reason === 'messaging_limit');
}

/**
 * The send engine's last check before a broadcast's provider call (admitsWaitingSend), on the
 * process's shared broadcast states (recentBroadcastStates: one read per broadcast per 250 ms, so a
 * broadcast at 1,000 sends a second costs 4 reads a second, not 1,000).
 */
export function broadcastSendAdmission(states: BroadcastStates): (send: WaitingBroadcastSend) => Promise<void> {
  return async ({ businessId, broadcastId }) => {
    if (!admitsWaitingSend(await states(businessScope(businessId), broadcastId))) {
      throw new CatalogError('BROADCAST_STATE_CONFLICT', 'The broadcast stopped running while this send waited; nothing was sent.');
    }
  };
}
