import type { BroadcastEntity, BroadcastPauseReason, BroadcastState, BusinessScope } from '@cmsg/dal';
import { CatalogError } from '@cmsg/errors';
import { broadcastEvent } from '../core/broadcast-events';
import type { BroadcastClock, BroadcastEvents, BroadcastStore, SlicePublisher } from '../core/broadcast-ports';
import { COORDINATOR_TIMING, dispatchPending, refreshCounts } from '../coordinate/coordinate-broadcast.usecase';

export const BROADCAST_TRANSITIONS = ['pause', 'resume', 'cancel', 'retry_failed'] as const;
export type BroadcastTransition = (typeof BROADCAST_TRANSITIONS)[number];

/**
 * Provider codes the provider documents as temporary: recipients failed with one of them are sent
 * again by retry-failed (a new attempt, so a new message). Never `unknown` ones.
 */
export const RETRYABLE_PROVIDER_CODES = ['131000', '131016', '130429', '131056', '131048'] as const;

export interface StatePorts {
  store: BroadcastStore;
  events: BroadcastEvents;
  slices: SlicePublisher;
  clock: BroadcastClock;
}

/** POST /broadcasts/{uuid}/pause | resume | cancel | retry-failed (CONTRACT 10.4). */
export async function changeBroadcastState(ports: StatePorts, scope: BusinessScope, id: string, transition: BroadcastTransition): Promise<BroadcastEntity> {
  const current = await ports.store.broadcasts.findById(scope, id);
  if (!current) throw new CatalogError('BROADCAST_NOT_FOUND', `No broadcast ${id} in this business.`);
  const now = ports.clock.now();
  switch (transition) {
    case 'pause':
      return pauseBroadcast(ports, scope, current, 'manual');
    case 'resume': {
      const resumed = orConflict(
        await ports.store.broadcasts.transition(scope, id, ['paused'], { set: { status: 'running', pause_reason: null, progress_at: now, due_at: now }, redispatch: true }),
        current,
        transition,
      );
      await dispatchPending(ports, resumed);
      return resumed;
    }
    case 'cancel': {
      const cancelled = orConflict(
        // Due again at the next tick: recipients a freeze step or a sender still leaves pending are cancelled then.
        await ports.store.broadcasts.transition(scope, id, ['scheduled', 'preparing', 'running', 'paused'], {
          set: { status: 'cancelled', pause_reason: null, finished_at: now, due_at: new Date(now.getTime() + COORDINATOR_TIMING.tickMs) },
        }),
        current,
        transition,
      );
      await ports.store.recipients.cancelPending(scope, id);
      await refreshCounts(ports, cancelled);
      return (await ports.store.broadcasts.findById(scope, id)) ?? cancelled;
    }
    case 'retry_failed':
      return retryFailed(ports, scope, current);
  }
}

/** running -> paused with its reason and broadcast.paused; a manual pause of another state is a conflict. */
export async function pauseBroadcast(ports: Pick<StatePorts, 'store' | 'events' | 'clock'>, scope: BusinessScope, current: BroadcastEntity, reason: BroadcastPauseReason): Promise<BroadcastEntity> {
  const now = ports.clock.now();
  const paused = await ports.store.broadcasts.transition(scope, current._id, ['running'], {
    // Looked at after a tick (the sends in flight end, the counts follow them), or, paused by the
    // messaging limit, when a unit may have freed.
    set: { status: 'paused', pause_reason: reason, due_at: new Date(now.getTime() + (reason === 'messaging_limit' ? COORDINATOR_TIMING.pausedTickMs : COORDINATOR_TIMING.tickMs)) },
    event: broadcastEvent('broadcast.paused', current, current.counts, reason, now),
  });
  if (!paused) {
    if (reason !== 'manual') return current;
    throw conflict(current, 'pause');
  }
  await ports.events.recordQuietly('broadcasts', scope, paused._id, paused.outbox ?? []);
  return paused;
}

/** Every running broadcast of a channel pauses with `reason` (the provider's spam rate limit, 131048). */
export async function pauseChannelBroadcasts(ports: Pick<StatePorts, 'store' | 'events' | 'clock'>, scope: BusinessScope, channelId: string, reason: BroadcastPauseReason): Promise<number> {
  const running = await ports.store.broadcasts.findOnChannel(scope, channelId, ['running']);
  for (const broadcast of running) await pauseBroadcast(ports, scope, broadcast, reason);
  return running.length;
}

/** The running broadcasts of a template that is no longer approved pause (`template_not_approved`). */
export async function pauseTemplateBroadcasts(ports: Pick<StatePorts, 'store' | 'events' | 'clock'>, scope: BusinessScope, channelId: string, template: { name: string; language: string }): Promise<number> {
  const running = await ports.store.broadcasts.findOnChannel(scope, channelId, ['running']);
  const ofTemplate = running.filter((broadcast) => broadcast.template.name === template.name && broadcast.template.language === template.language);
  for (const broadcast of ofTemplate) await pauseBroadcast(ports, scope, broadcast, 'template_not_approved');
  return ofTemplate.length;
}

async function retryFailed(ports: StatePorts, scope: BusinessScope, current: BroadcastEntity): Promise<BroadcastEntity> {
  const from: BroadcastState[] = ['running', 'paused', 'completed'];
  if (!from.includes(current.status)) throw conflict(current, 'retry_failed');
  const reset = await ports.store.recipients.retryFailed(scope, current._id, RETRYABLE_PROVIDER_CODES);
  if (reset === 0) return current;
  // The recipients are pending again: whatever the broadcast became meanwhile (a tick may have
  // completed it on counts read before the reset), it is moved on from its state as it is now.
  let state = current;
  for (let attempt = 0; attempt < 5; attempt += 1) {
    const now = ports.clock.now();
    const next = state.status === 'completed' ? 'running' : state.status;
    const changed = await ports.store.broadcasts.transition(scope, current._id, [state.status], {
      set: { status: next, finished_at: next === 'running' ? null : state.finished_at, progress_at: now, due_at: now },
      redispatch: next === 'running',
    });
    if (changed) {
      if (next === 'running') await dispatchPending(ports, changed);
      return changed;
    }
    const reread = await ports.store.broadcasts.findById(scope, current._id);
    if (!reread || !from.includes(reread.status)) break;
    state = reread;
  }
  throw conflict(current, 'retry_failed');
}

function orConflict(changed: BroadcastEntity | null, current: BroadcastEntity, transition: BroadcastTransition): BroadcastEntity {
  if (!changed) throw conflict(current, transition);
  return changed;
}

function conflict(current: BroadcastEntity, transition: BroadcastTransition): CatalogError {
  return new CatalogError('BROADCAST_STATE_CONFLICT', `A ${current.status} broadcast cannot ${transition.replace('_', ' ')}.`);
}
