import type { BroadcastEntity, BusinessScope, ClaimedBroadcast } from '@cmsg/dal';
import { isCatalogError } from '@cmsg/errors';
import type { AudiencePorts } from '../core/audience-ports';
import { broadcastEvent } from '../core/broadcast-events';
import type { BroadcastClock, BroadcastEvents, BroadcastStore, SlicePublisher } from '../core/broadcast-ports';
import { countsOf, settledCount } from '../core/counts';
import { businessScopeOf } from '../core/scope';
import { type SendOutcomeLookup, recipientOperationId } from '../core/send-operation';
import { slicesOf } from '../core/slices';
import { freezeNextBatch } from '../freeze/freeze-audience';
import { isInsideWindow } from '../send-window';

export interface CoordinatorPorts {
  store: BroadcastStore;
  audience: AudiencePorts;
  events: BroadcastEvents;
  slices: SlicePublisher;
  clock: BroadcastClock;
  sendOutcome: SendOutcomeLookup;
  /** Units left in the channel's messaging limit (null: unlimited). */
  messagingLimitRemaining(scope: BusinessScope, channelId: string): Promise<number | null>;
}

export const COORDINATOR_TIMING = {
  /** A step's lease: a replica that dies mid-step is replaced after it. */
  leaseMs: 15_000,
  /** Running broadcasts are looked at this often (stale claims; counts, completion and stalls when a recount is due). */
  tickMs: 1_000,
  /**
   * A recount reads every recipient of the broadcast, so the next one waits until this share of the
   * time since is what the last one took: 100 ms at 100,000 recipients keeps one a tick, 1 s at
   * 1,000,000 one every 10 s, and a MongoDB slowed by load is asked less.
   */
  recountShare: 0.1,
  /** The longest a running broadcast's counts go without a recount (below stallMs, which they detect). */
  recountMaxIntervalMs: 10_000,
  /** A freezing step hands over after this long, so one broadcast cannot hold a replica. */
  freezeSliceMs: 3_000,
  /** A claim this old is settled from its message (its sender may have died). */
  staleClaimMs: 10_000,
  /** A running broadcast with pending recipients and no progress this long is dispatched again. */
  stallMs: 15_000,
  /** Paused by a limit: looked at this often to resume by itself. */
  pausedTickMs: 5_000,
  /** Freeze steps failing this long, none succeeding in between, fail the broadcast. */
  freezeGiveUpMs: 10 * 60_000,
  /** A failed freeze step is tried again after this. */
  freezeRetryMs: 15_000,
};

/** Errors of a freeze step that trying again cannot mend: the broadcast fails at once. */
const LASTING_FREEZE_ERRORS: ReadonlySet<string> = new Set(['CHANNEL_NOT_FOUND', 'FILE_NOT_FOUND', 'TEMPLATE_NOT_FOUND']);

/** One coordinator step of a claimed broadcast (docs/broadcasts.md), by its state. */
export async function coordinateBroadcast(ports: CoordinatorPorts, claimed: ClaimedBroadcast, timing = COORDINATOR_TIMING): Promise<void> {
  const { broadcast } = claimed;
  const scope = businessScopeOf(broadcast);
  const now = ports.clock.now();
  switch (broadcast.status) {
    case 'scheduled':
      await ports.store.broadcasts.transition(scope, broadcast._id, ['scheduled'], { set: { status: 'preparing', due_at: now } });
      return;
    case 'preparing':
      return prepare(ports, claimed, timing).catch((error: unknown) => freezeStepFailed(ports, claimed.broadcast, error, timing));
    case 'running':
      return tick(ports, claimed, timing);
    case 'paused':
      return tickPaused(ports, broadcast, timing);
    case 'cancelled':
      return settleCancelled(ports, broadcast, timing);
    default:
      await ports.store.broadcasts.setDue(scope, broadcast._id, null);
  }
}

/**
 * After a cancel, once a tick until nothing is open: recipients a freeze step in flight still
 * inserted, or a sender gave back (the send waited for its slot when the cancel came), are
 * cancelled too; claims whose sender died are settled; then the counts are final.
 */
async function settleCancelled(ports: CoordinatorPorts, broadcast: BroadcastEntity, timing: typeof COORDINATOR_TIMING): Promise<void> {
  const scope = businessScopeOf(broadcast);
  await settleStaleClaims(ports, broadcast, timing, false);
  await ports.store.recipients.cancelPending(scope, broadcast._id);
  await refreshCounts(ports, broadcast);
  const open = await ports.store.recipients.hasOpenRecipients(scope, broadcast._id);
  await ports.store.broadcasts.setDue(scope, broadcast._id, open ? new Date(ports.clock.now().getTime() + timing.tickMs) : null);
}

/** Counts from the recipients, stored on the broadcast; answers how many recipients are claimed (a send in flight). */
export async function refreshCounts(ports: Pick<CoordinatorPorts, 'store' | 'clock'>, broadcast: BroadcastEntity): Promise<number> {
  const scope = businessScopeOf(broadcast);
  const outcomes = await ports.store.recipients.countOutcomes(scope, broadcast._id);
  await ports.store.broadcasts.saveCounts(scope, broadcast._id, {
    counts: countsOf(outcomes),
    skipped_by_reason: outcomes.skippedByReason,
    failed_by_code: outcomes.failedByCode,
    progress_at: broadcast.progress_at,
    counts_at: ports.clock.now(),
    current_per_second: 0,
  });
  return outcomes.byStatus.sending ?? 0;
}

/**
 * A freeze step that threw (the audience file unreadable, the channel gone, MongoDB unreachable):
 * tried again after freezeRetryMs, unless the error is lasting or the steps have failed for
 * freezeGiveUpMs; then the broadcast is `failed` with the error, and the recipients frozen so far
 * are skipped `cancelled` (nothing was sent: sending starts once the freeze is done).
 */
async function freezeStepFailed(ports: CoordinatorPorts, broadcast: BroadcastEntity, error: unknown, timing: typeof COORDINATOR_TIMING): Promise<void> {
  const scope = businessScopeOf(broadcast);
  const now = ports.clock.now();
  const failingSince = broadcast.freeze_failing_since ?? now;
  const lasting = isCatalogError(error) && LASTING_FREEZE_ERRORS.has(error.code);
  if (!lasting && now.getTime() - failingSince.getTime() < timing.freezeGiveUpMs) {
    await ports.store.broadcasts.transition(scope, broadcast._id, ['preparing'], { set: { freeze_failing_since: failingSince, due_at: new Date(now.getTime() + timing.freezeRetryMs) } });
    return;
  }
  const failure = isCatalogError(error) ? { code: error.code, message: error.message } : { code: 'UNKNOWN_ERROR', message: `Freezing the audience kept failing for ${Math.round((now.getTime() - failingSince.getTime()) / 1000)} s.` };
  const failed = await ports.store.broadcasts.transition(scope, broadcast._id, ['preparing'], { set: { status: 'failed', error: failure, finished_at: now, due_at: null, freeze_failing_since: null } });
  if (!failed) return;
  await ports.store.recipients.cancelPending(scope, broadcast._id);
  await refreshCounts(ports, failed);
}

async function prepare(ports: CoordinatorPorts, claimed: ClaimedBroadcast, timing: typeof COORDINATOR_TIMING): Promise<void> {
  const started = ports.clock.now().getTime();
  for (;;) {
    const progress = await freezeNextBatch(ports, claimed, new Date(ports.clock.now().getTime() + timing.leaseMs));
    if (progress === 'lease_lost') return;
    if (claimed.broadcast.freeze_failing_since) {
      // A step succeeded: failures before it no longer count towards giving up.
      await ports.store.broadcasts.transition(businessScopeOf(claimed.broadcast), claimed.broadcast._id, ['preparing'], { set: { freeze_failing_since: null } });
      claimed.broadcast = { ...claimed.broadcast, freeze_failing_since: null };
    }
    if (progress === 'done') break;
    if (ports.clock.now().getTime() - started > timing.freezeSliceMs) {
      // Hand over: the next step (this replica or another) goes on from the checkpoint.
      await ports.store.broadcasts.saveCheckpoint(businessScopeOf(claimed.broadcast), claimed, claimed.broadcast.freeze, ports.clock.now());
      return;
    }
  }
  const scope = businessScopeOf(claimed.broadcast);
  const now = ports.clock.now();
  const outcomes = await ports.store.recipients.countOutcomes(scope, claimed.broadcast._id);
  const counts = countsOf(outcomes);
  const running = await ports.store.broadcasts.transition(scope, claimed.broadcast._id, ['preparing'], {
    set: { status: 'running', started_at: now, due_at: new Date(now.getTime() + timing.tickMs), counts, skipped_by_reason: outcomes.skippedByReason, failed_by_code: outcomes.failedByCode, progress_at: now },
    event: broadcastEvent('broadcast.started', claimed.broadcast, counts, null, now),
    redispatch: true,
  });
  if (!running) return;
  await ports.events.recordQuietly('broadcasts', scope, running._id, running.outbox ?? []);
  await dispatchPending(ports, running);
}

async function tick(ports: CoordinatorPorts, claimed: ClaimedBroadcast, timing: typeof COORDINATOR_TIMING): Promise<void> {
  const { broadcast } = claimed;
  const scope = businessScopeOf(broadcast);
  await settleStaleClaims(ports, broadcast, timing);
  const now = ports.clock.now();
  if (broadcast.recount_at && now < broadcast.recount_at) {
    await ports.store.broadcasts.setDue(scope, broadcast._id, new Date(now.getTime() + timing.tickMs));
    return;
  }
  const outcomes = await ports.store.recipients.countOutcomes(scope, broadcast._id);
  const countedInMs = ports.clock.now().getTime() - now.getTime();
  const counts = countsOf(outcomes);
  const progressed = settledCount(counts) !== settledCount(broadcast.counts);
  const elapsedS = broadcast.counts_at ? Math.max(0.1, (now.getTime() - broadcast.counts_at.getTime()) / 1000) : 1;
  const perSecond = Math.max(0, settledCount(counts) - settledCount(broadcast.counts)) / elapsedS;
  await ports.store.broadcasts.saveCounts(scope, broadcast._id, {
    counts,
    skipped_by_reason: outcomes.skippedByReason,
    failed_by_code: outcomes.failedByCode,
    progress_at: progressed ? now : broadcast.progress_at,
    counts_at: now,
    recount_at: new Date(now.getTime() + recountIntervalMs(countedInMs, timing)),
    current_per_second: Math.round(perSecond * 10) / 10,
  });
  if (counts.pending === 0) {
    const completed = await ports.store.broadcasts.transition(scope, broadcast._id, ['running'], {
      set: { status: 'completed', finished_at: now, due_at: null, counts, current_per_second: 0 },
      event: broadcastEvent('broadcast.completed', broadcast, counts, null, now),
    });
    if (completed) await ports.events.recordQuietly('broadcasts', scope, completed._id, completed.outbox ?? []);
    return;
  }
  const stalled = !progressed && now.getTime() - (broadcast.progress_at?.getTime() ?? 0) > timing.stallMs;
  if (stalled && insideWindow(broadcast, now)) {
    const redispatched = await ports.store.broadcasts.transition(scope, broadcast._id, ['running'], { set: { progress_at: now }, redispatch: true });
    if (redispatched) await dispatchPending(ports, redispatched);
  }
  await ports.store.broadcasts.setDue(scope, broadcast._id, new Date(now.getTime() + timing.tickMs));
}

/** When the next recount of a running broadcast is due after one that took `countedInMs` (recountShare). */
function recountIntervalMs(countedInMs: number, timing: typeof COORDINATOR_TIMING): number {
  return Math.min(timing.recountMaxIntervalMs, Math.max(timing.tickMs, countedInMs / timing.recountShare));
}

/**
 * Claims older than staleClaimMs, settled from their message: none -> the call never happened,
 * pending again (and dispatched); sent or failed -> taken over; a message still in flight past its
 * own lease was settled as failed with no provider answer -> unknown. Never resent once the message exists.
 */
async function settleStaleClaims(ports: CoordinatorPorts, broadcast: BroadcastEntity, timing: typeof COORDINATOR_TIMING, dispatchReleased = true): Promise<void> {
  const scope = businessScopeOf(broadcast);
  const stale = await ports.store.recipients.findStaleClaims(scope, broadcast._id, new Date(ports.clock.now().getTime() - timing.staleClaimMs), 500);
  const released: number[] = [];
  for (const recipient of stale) {
    const outcome = await ports.sendOutcome(scope, recipientOperationId(recipient));
    if (outcome.kind === 'in_flight') continue;
    if (outcome.kind === 'absent') {
      if (await ports.store.recipients.release(scope, recipient._id, false)) released.push(recipient.seq);
    } else if (outcome.kind === 'sent') {
      await ports.store.recipients.finish(scope, recipient._id, { status: 'sent', message_id: outcome.message_id, sent_at: outcome.sent_at });
    } else if (outcome.error.code === 'SEND_FAILED' && outcome.error.provider_code === null) {
      await ports.store.recipients.finish(scope, recipient._id, { status: 'unknown', message_id: outcome.message_id });
    } else {
      await ports.store.recipients.finish(scope, recipient._id, { status: 'failed', error: outcome.error, message_id: outcome.message_id });
    }
  }
  if (dispatchReleased && released.length > 0) await ports.slices.publish(slicesOf(broadcast, released));
}

/** Every pending recipient, in slices of the broadcast's current epoch. */
export async function dispatchPending(ports: Pick<CoordinatorPorts, 'store' | 'slices'>, broadcast: BroadcastEntity): Promise<void> {
  const seqs = await ports.store.recipients.pendingSeqs(businessScopeOf(broadcast), broadcast._id);
  await ports.slices.publish(slicesOf(broadcast, seqs));
}

/**
 * A paused broadcast: one paused by the messaging limit resumes once a unit is free. Meanwhile the
 * sends in flight at the pause end (sent, or given back to `pending` by the engine's admission):
 * while any recipient is claimed it is looked at every tick, its claims whose sender died settled
 * as a running broadcast's are (released ones stay pending, not dispatched), and its counts kept
 * current; once none is, the counts are refreshed a last time and only the messaging limit's
 * pause is looked at again.
 */
async function tickPaused(ports: CoordinatorPorts, broadcast: BroadcastEntity, timing: typeof COORDINATOR_TIMING): Promise<void> {
  const scope = businessScopeOf(broadcast);
  const now = ports.clock.now();
  const limitPaused = broadcast.pause_reason === 'messaging_limit';
  if (limitPaused) {
    const remaining = await ports.messagingLimitRemaining(scope, broadcast.channel_id);
    if (remaining === null || remaining > 0) {
      const resumed = await ports.store.broadcasts.transition(scope, broadcast._id, ['paused'], {
        set: { status: 'running', pause_reason: null, progress_at: now, due_at: new Date(now.getTime() + timing.tickMs) },
        redispatch: true,
      });
      if (resumed) await dispatchPending(ports, resumed);
      return;
    }
  }
  await settleStaleClaims(ports, broadcast, timing, false);
  const inFlight = await refreshCounts(ports, broadcast);
  const nextMs = inFlight > 0 ? timing.tickMs : limitPaused ? timing.pausedTickMs : null;
  await ports.store.broadcasts.setDue(scope, broadcast._id, nextMs === null ? null : new Date(now.getTime() + nextMs));
}

function insideWindow(broadcast: BroadcastEntity, now: Date): boolean {
  return broadcast.send_window === null || isInsideWindow(broadcast.send_window, broadcast.time_zone, now);
}
