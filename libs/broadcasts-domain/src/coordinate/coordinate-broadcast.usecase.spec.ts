import { type BroadcastEntity, type BroadcastRecipientEntity, type ClaimedBroadcast, businessScope } from '@cmsg/dal';
import { CatalogError } from '@cmsg/errors';
import type { MessageSendOutcome } from '../core/send-operation';
import { recipientOperationId } from '../core/send-operation';
import { BUSINESS, aBroadcast, aContact, aRecipient } from '../testing/broadcast-builders';
import { type BroadcastData, inMemoryBroadcastStore } from '../testing/in-memory-broadcast-store';
import { type StoredAudienceContact, type TestClock, inMemoryAudience, recordingEvents, recordingSlices, testClock } from '../testing/in-memory-broadcast-ports';
import { changeBroadcastState } from '../state/change-broadcast-state.usecase';
import { COORDINATOR_TIMING, type CoordinatorPorts, coordinateBroadcast } from './coordinate-broadcast.usecase';

const scope = businessScope(BUSINESS);
const ids = (count: number) => Array.from({ length: count }, (_, index) => `c${String(index).padStart(4, '0')}`);

describe('coordinateBroadcast', () => {
  let data: BroadcastData;
  let contacts: StoredAudienceContact[];
  let clock: TestClock;
  let events: ReturnType<typeof recordingEvents>;
  let slices: ReturnType<typeof recordingSlices>;
  let outcomes: Map<string, MessageSendOutcome>;
  let asked: string[];
  let remaining: number | null;
  let ports: CoordinatorPorts;

  beforeEach(() => {
    data = { broadcasts: [], recipients: [] };
    contacts = [];
    clock = testClock('2026-03-02T12:00:00Z');
    events = recordingEvents();
    slices = recordingSlices();
    outcomes = new Map();
    asked = [];
    remaining = 0;
    ports = {
      store: inMemoryBroadcastStore(data),
      audience: inMemoryAudience(contacts),
      events,
      slices,
      clock,
      sendOutcome: async (_scope, operationId) => {
        asked.push(operationId);
        return outcomes.get(operationId) ?? { kind: 'absent' };
      },
      messagingLimitRemaining: async () => remaining,
    };
  });

  const ago = (ms: number) => new Date(clock.at.getTime() - ms);
  const later = (ms: number) => new Date(clock.at.getTime() + ms);
  const stored = () => data.broadcasts[0]!;
  const recipient = (seq: number) => data.recipients.find((candidate) => candidate.seq === seq)!;
  /** Stores the broadcast due now and claims its step, as runDueBroadcasts does. */
  const claimed = async (overrides: Partial<BroadcastEntity>, recipients: BroadcastRecipientEntity[] = []): Promise<ClaimedBroadcast> => {
    data.broadcasts.push(aBroadcast({ due_at: clock.now(), ...overrides }));
    data.recipients.push(...recipients);
    return (await ports.store.broadcasts.claim(scope, stored(), later(COORDINATOR_TIMING.leaseMs)))!;
  };
  const step = async (overrides: Partial<BroadcastEntity>, recipients: BroadcastRecipientEntity[] = []) => coordinateBroadcast(ports, await claimed(overrides, recipients));

  describe('scheduled and preparing', () => {
    it('moves a scheduled broadcast to preparing, due at once', async () => {
      await step({ status: 'scheduled', started_at: null });
      expect(stored()).toMatchObject({ status: 'preparing', due_at: clock.now() });
      expect(data.recipients).toEqual([]);
    });

    it('freezes the audience, then runs it: started_at, counts, broadcast.started and a slice for every pending seq at a raised epoch', async () => {
      contacts.push(...ids(120).map((id) => aContact(id)), aContact('c0500', { consent: { marketing: 'opted_out', utility: 'unknown' } }));
      await step({ status: 'preparing', started_at: null, dispatch_epoch: 4, counts_at: null });
      const counts = { total: 121, pending: 120, sent: 0, delivered: 0, read: 0, replied: 0, failed: 0, skipped: 1, unknown: 0 };
      expect(stored()).toMatchObject({
        status: 'running',
        started_at: clock.now(),
        progress_at: clock.now(),
        due_at: later(COORDINATOR_TIMING.tickMs),
        dispatch_epoch: 5,
        counts,
        skipped_by_reason: { opted_out: 1 },
        failed_by_code: {},
        freeze: { after_contact_id: 'c0500', rows: 121, next_seq: 121 },
      });
      expect(events.recorded).toEqual([
        {
          collection: 'broadcasts',
          businessId: BUSINESS,
          documentId: 'bc1',
          entry: expect.objectContaining({ type: 'broadcast.started', conversation_id: null, data: { broadcast: { uuid: 'bc1', name: 'Spring sale' }, counts, reason: null } }),
        },
      ]);
      expect(stored().outbox).toEqual([events.recorded[0]!.entry]);
      expect(slices.published).toEqual([
        { business_id: BUSINESS, broadcast_id: 'bc1', from_seq: 0, to_seq: 50, epoch: 5 },
        { business_id: BUSINESS, broadcast_id: 'bc1', from_seq: 50, to_seq: 100, epoch: 5 },
        { business_id: BUSINESS, broadcast_id: 'bc1', from_seq: 100, to_seq: 120, epoch: 5 },
      ]);
    });

    it('hands a long freeze over at its checkpoint, due at once, and the next step goes on from it', async () => {
      contacts.push(...ids(1200).map((id) => aContact(id)));
      const audience = ports.audience;
      ports.audience = {
        ...audience,
        contactsMatching: async (...args) => {
          clock.advance(2_000);
          return audience.contactsMatching(...args);
        },
      };
      await step({ status: 'preparing', started_at: null });
      expect(stored()).toMatchObject({ status: 'preparing', freeze: { after_contact_id: 'c0999', rows: 1000, next_seq: 1000 }, due_at: clock.now() });
      expect(slices.published).toEqual([]);

      await coordinateBroadcast(ports, (await ports.store.broadcasts.claim(scope, stored(), later(COORDINATOR_TIMING.leaseMs)))!);
      expect(stored()).toMatchObject({ status: 'running', counts: { total: 1200, pending: 1200 } });
      expect(data.recipients.map((recipient) => recipient.seq).sort((a, b) => a - b)).toEqual(Array.from({ length: 1200 }, (_, index) => index));
    });

    it('stops without running when its lease was taken over', async () => {
      contacts.push(aContact('c1'));
      const mine = await claimed({ status: 'preparing', started_at: null });
      await ports.store.broadcasts.claim(scope, stored(), later(30_000));
      await coordinateBroadcast(ports, mine);
      expect(stored()).toMatchObject({ status: 'preparing', due_at: later(30_000) });
      expect(events.recorded).toEqual([]);
      expect(slices.published).toEqual([]);
    });

    describe('a freeze step that fails', () => {
      const failingAfter = (batches: number, error: () => Error) => {
        const audience = ports.audience;
        let served = 0;
        ports.audience = {
          ...audience,
          contactsMatching: async (...args) => {
            if (served >= batches) throw error();
            served += 1;
            clock.advance(2_000);
            return audience.contactsMatching(...args);
          },
        };
      };
      const stepAgain = async () => coordinateBroadcast(ports, (await ports.store.broadcasts.claim(scope, stored(), later(COORDINATOR_TIMING.leaseMs)))!);

      it('fails the broadcast at once on an error retrying cannot mend: its error shown, the recipients frozen so far skipped cancelled, counts final', async () => {
        contacts.push(...ids(1200).map((id) => aContact(id)));
        failingAfter(1, () => new CatalogError('CHANNEL_NOT_FOUND', 'The channel ch1 of the broadcast no longer exists.'));
        await step({ status: 'preparing', started_at: null });
        expect(stored()).toMatchObject({
          status: 'failed',
          error: { code: 'CHANNEL_NOT_FOUND', message: 'The channel ch1 of the broadcast no longer exists.' },
          finished_at: clock.now(),
          due_at: null,
          counts: { total: 500, pending: 0, skipped: 500 },
          skipped_by_reason: { cancelled: 500 },
        });
        expect(slices.published).toEqual([]);
      });

      it('tries a passing failure again after freezeRetryMs, and fails with it once the steps have failed for freezeGiveUpMs', async () => {
        contacts.push(...ids(20).map((id) => aContact(id)));
        failingAfter(0, () => new Error('connection closed'));
        await step({ status: 'preparing', started_at: null });
        const since = clock.now();
        expect(stored()).toMatchObject({ status: 'preparing', freeze_failing_since: since, due_at: later(COORDINATOR_TIMING.freezeRetryMs) });

        clock.advance(COORDINATOR_TIMING.freezeGiveUpMs - 1_000);
        await stepAgain();
        expect(stored()).toMatchObject({ status: 'preparing', freeze_failing_since: since });

        clock.advance(1_000);
        await stepAgain();
        expect(stored()).toMatchObject({ status: 'failed', error: { code: 'UNKNOWN_ERROR', message: expect.stringContaining('600 s') }, counts: { total: 0 } });
      });

      it('counts only failures with no successful step after them', async () => {
        contacts.push(...ids(1200).map((id) => aContact(id)));
        let failures = 1;
        const audience = ports.audience;
        ports.audience = {
          ...audience,
          contactsMatching: async (...args) => {
            if (failures > 0) {
              failures -= 1;
              throw new Error('connection closed');
            }
            return audience.contactsMatching(...args);
          },
        };
        await step({ status: 'preparing', started_at: null });
        expect(stored().freeze_failing_since).toEqual(clock.now());
        clock.advance(COORDINATOR_TIMING.freezeGiveUpMs);
        await stepAgain();
        expect(stored()).toMatchObject({ status: 'running', freeze_failing_since: null, counts: { total: 1200 } });
      });
    });

    it('runs and completes a broadcast whose audience is empty', async () => {
      await step({ status: 'preparing', started_at: null });
      expect(stored()).toMatchObject({ status: 'running', counts: { total: 0 } });
      expect(slices.published).toEqual([]);
      clock.advance(1_000);
      await step({});
      expect(stored()).toMatchObject({ status: 'completed', finished_at: clock.now() });
    });
  });

  describe('a running tick', () => {
    const broadcast = aBroadcast();

    it('saves counts that add up, the rate since the last tick, and is due at the next tick', async () => {
      const recipients = [
        aRecipient(broadcast, 0, { status: 'sent', message_id: 'm0', sent_at: ago(500) }),
        aRecipient(broadcast, 1, { status: 'delivered', message_id: 'm1' }),
        aRecipient(broadcast, 2, { status: 'failed', error: { code: 'SEND_FAILED', message: 'x', provider_code: '131026' } }),
        aRecipient(broadcast, 3, { status: 'skipped', reason: 'opted_out' }),
        aRecipient(broadcast, 4, { status: 'sending', claimed_at: ago(1_000) }),
        aRecipient(broadcast, 5),
        aRecipient(broadcast, 6, { status: 'unknown' }),
      ];
      const counts = { total: 7, pending: 6, sent: 1, delivered: 0, read: 0, replied: 0, failed: 0, skipped: 0, unknown: 0 };
      await step({ counts, counts_at: ago(2_000), progress_at: ago(2_000) }, recipients);
      expect(stored()).toMatchObject({
        status: 'running',
        counts: { total: 7, pending: 2, sent: 1, delivered: 1, read: 0, replied: 0, failed: 1, skipped: 1, unknown: 1 },
        skipped_by_reason: { opted_out: 1 },
        failed_by_code: { SEND_FAILED: 1 },
        counts_at: clock.now(),
        current_per_second: 2,
        progress_at: clock.now(),
        due_at: later(COORDINATOR_TIMING.tickMs),
      });
      const { total, ...states } = stored().counts;
      expect(Object.values(states).reduce((sum, count) => sum + count, 0)).toBe(total);
      expect(slices.published).toEqual([]);
      expect(asked).toEqual([]);
    });

    it('settles claims older than staleClaimMs from their send outcome, and leaves a send in flight or a fresh claim alone', async () => {
      const stale = { status: 'sending' as const, claimed_at: ago(COORDINATOR_TIMING.staleClaimMs + 1) };
      const recipients = [
        aRecipient(broadcast, 0, stale),
        aRecipient(broadcast, 1, { ...stale, attempt: 2 }),
        aRecipient(broadcast, 2, stale),
        aRecipient(broadcast, 3, stale),
        aRecipient(broadcast, 4, stale),
        aRecipient(broadcast, 5, { status: 'sending', claimed_at: ago(1_000) }),
        aRecipient(broadcast, 70, stale),
      ];
      const failure = { code: 'SEND_FAILED', message: 'Recipient unavailable', provider_code: '131026' };
      outcomes.set(recipientOperationId(recipients[1]!), { kind: 'sent', message_id: 'm1', sent_at: ago(15_000) });
      outcomes.set(recipientOperationId(recipients[2]!), { kind: 'failed', message_id: 'm2', error: failure });
      outcomes.set(recipientOperationId(recipients[3]!), { kind: 'failed', message_id: 'm3', error: { code: 'SEND_FAILED', message: 'cut off', provider_code: null } });
      outcomes.set(recipientOperationId(recipients[4]!), { kind: 'in_flight' });
      await step({ dispatch_epoch: 3 }, recipients);

      expect(asked).toEqual(['bc1-r0:0', 'bc1-r1:2', 'bc1-r2:0', 'bc1-r3:0', 'bc1-r4:0', 'bc1-r70:0'].map((id) => `broadcast:${id}`));
      expect(recipient(0)).toMatchObject({ status: 'pending', claimed_at: null, attempt: 0 });
      expect(recipient(70)).toMatchObject({ status: 'pending', claimed_at: null });
      expect(recipient(1)).toMatchObject({ status: 'sent', message_id: 'm1', sent_at: ago(15_000), claimed_at: null });
      expect(recipient(2)).toMatchObject({ status: 'failed', message_id: 'm2', error: failure, claimed_at: null });
      expect(recipient(3)).toMatchObject({ status: 'unknown', message_id: 'm3', error: null, claimed_at: null });
      expect(recipient(4)).toMatchObject({ status: 'sending', claimed_at: stale.claimed_at });
      expect(recipient(5)).toMatchObject({ status: 'sending' });
      expect(slices.published).toEqual([
        { business_id: BUSINESS, broadcast_id: 'bc1', from_seq: 0, to_seq: 1, epoch: 3 },
        { business_id: BUSINESS, broadcast_id: 'bc1', from_seq: 70, to_seq: 71, epoch: 3 },
      ]);
      expect(stored().counts).toMatchObject({ total: 7, pending: 4, sent: 1, failed: 1, unknown: 1 });
    });

    it('completes a broadcast with no recipient pending or claimed: finished_at, final counts and broadcast.completed', async () => {
      const recipients = [aRecipient(broadcast, 0, { status: 'read', message_id: 'm0' }), aRecipient(broadcast, 1, { status: 'skipped', reason: 'duplicate' })];
      await step({ dispatch_epoch: 2 }, recipients);
      const counts = { total: 2, pending: 0, sent: 0, delivered: 0, read: 1, replied: 0, failed: 0, skipped: 1, unknown: 0 };
      expect(stored()).toMatchObject({ status: 'completed', finished_at: clock.now(), due_at: null, counts, current_per_second: 0, dispatch_epoch: 2 });
      expect(events.recorded.map((recorded) => recorded.entry)).toEqual([
        expect.objectContaining({ type: 'broadcast.completed', conversation_id: null, data: { broadcast: { uuid: 'bc1', name: 'Spring sale' }, counts, reason: null } }),
      ]);
      expect(slices.published).toEqual([]);
    });

    it('completes once the last stale claim settles in the same tick', async () => {
      const recipients = [aRecipient(broadcast, 0, { status: 'sending', claimed_at: ago(60_000) })];
      outcomes.set(recipientOperationId(recipients[0]!), { kind: 'sent', message_id: 'm0', sent_at: ago(59_000) });
      await step({}, recipients);
      expect(stored()).toMatchObject({ status: 'completed', counts: { total: 1, sent: 1, pending: 0 } });
    });

    it('dispatches every pending recipient again at a raised epoch when nothing progressed for stallMs', async () => {
      const recipients = [aRecipient(broadcast, 0), aRecipient(broadcast, 1, { status: 'sent', message_id: 'm1' }), aRecipient(broadcast, 2), aRecipient(broadcast, 60)];
      const counts = { total: 4, pending: 3, sent: 1, delivered: 0, read: 0, replied: 0, failed: 0, skipped: 0, unknown: 0 };
      await step({ counts, dispatch_epoch: 2, progress_at: ago(COORDINATOR_TIMING.stallMs + 1) }, recipients);
      expect(stored()).toMatchObject({ status: 'running', dispatch_epoch: 3, progress_at: clock.now(), due_at: later(COORDINATOR_TIMING.tickMs) });
      expect(slices.published).toEqual([
        { business_id: BUSINESS, broadcast_id: 'bc1', from_seq: 0, to_seq: 3, epoch: 3 },
        { business_id: BUSINESS, broadcast_id: 'bc1', from_seq: 60, to_seq: 61, epoch: 3 },
      ]);
    });

    it('does not dispatch again before stallMs, after progress, or outside the send window', async () => {
      const counts = { total: 2, pending: 2, sent: 0, delivered: 0, read: 0, replied: 0, failed: 0, skipped: 0, unknown: 0 };
      await step({ counts, progress_at: ago(COORDINATOR_TIMING.stallMs - 1) }, [aRecipient(broadcast, 0), aRecipient(broadcast, 1)]);
      expect(stored().dispatch_epoch).toBe(1);

      data.broadcasts = [];
      data.recipients = [];
      await step({ counts, progress_at: ago(60_000) }, [aRecipient(broadcast, 0), aRecipient(broadcast, 1, { status: 'sent', message_id: 'm1' })]);
      expect(stored()).toMatchObject({ dispatch_epoch: 1, progress_at: clock.now() });

      data.broadcasts = [];
      data.recipients = [];
      // 12:00 UTC is 06:00 in Mexico City: outside 09:00-20:00.
      await step({ counts, progress_at: ago(60_000), send_window: { from: '09:00', to: '20:00' }, time_zone: 'America/Mexico_City' }, [aRecipient(broadcast, 0), aRecipient(broadcast, 1)]);
      expect(stored()).toMatchObject({ dispatch_epoch: 1, due_at: later(COORDINATOR_TIMING.tickMs) });
      expect(slices.published).toEqual([]);
    });
    it('spaces recounts by what the last one took: between them a tick settles stale claims only, and the recount after them completes the broadcast', async () => {
      const recipients = [aRecipient(broadcast, 0), aRecipient(broadcast, 1, { status: 'sent', message_id: 'm1' })];
      const countOutcomes = ports.store.recipients.countOutcomes;
      let recounts = 0;
      ports.store.recipients.countOutcomes = async (...args) => {
        recounts += 1;
        // A recount over many recipients: 300 ms, so the next waits 3 s (recountShare 0.1).
        clock.advance(300);
        return countOutcomes(...args);
      };
      const started = clock.now().getTime();
      await step({ progress_at: ago(1_000) }, recipients);
      expect(recounts).toBe(1);
      expect(stored()).toMatchObject({ counts: { total: 2, pending: 1, sent: 1 }, recount_at: new Date(started + 3_000), due_at: new Date(started + COORDINATOR_TIMING.tickMs) });

      recipient(0).status = 'sending';
      recipient(0).claimed_at = ago(COORDINATOR_TIMING.staleClaimMs + 1);
      outcomes.set(recipientOperationId(recipient(0)), { kind: 'sent', message_id: 'm0', sent_at: ago(COORDINATOR_TIMING.staleClaimMs) });
      clock.at = new Date(started + 2_000);
      await coordinateBroadcast(ports, (await ports.store.broadcasts.claim(scope, stored(), later(COORDINATOR_TIMING.leaseMs)))!);
      expect(recounts).toBe(1);
      expect(recipient(0)).toMatchObject({ status: 'sent', message_id: 'm0' });
      expect(stored()).toMatchObject({ status: 'running', counts: { pending: 1, sent: 1 }, due_at: later(COORDINATOR_TIMING.tickMs) });

      clock.at = new Date(started + 3_000);
      await coordinateBroadcast(ports, (await ports.store.broadcasts.claim(scope, stored(), later(COORDINATOR_TIMING.leaseMs)))!);
      expect(recounts).toBe(2);
      expect(stored()).toMatchObject({ status: 'completed', counts: { total: 2, pending: 0, sent: 2 } });
    });

    it('recounts at least every recountMaxIntervalMs, however long a recount took', async () => {
      const countOutcomes = ports.store.recipients.countOutcomes;
      ports.store.recipients.countOutcomes = async (...args) => {
        clock.advance(5_000);
        return countOutcomes(...args);
      };
      const started = clock.now().getTime();
      await step({}, [aRecipient(broadcast, 0)]);
      expect(stored().recount_at).toEqual(new Date(started + COORDINATOR_TIMING.recountMaxIntervalMs));
    });
  });

  describe('paused, cancelled and final', () => {
    const broadcast = aBroadcast();

    it('looks again later at a broadcast paused by the messaging limit while no unit is free', async () => {
      remaining = 0;
      await step({ status: 'paused', pause_reason: 'messaging_limit' }, [aRecipient(broadcast, 0)]);
      expect(stored()).toMatchObject({ status: 'paused', pause_reason: 'messaging_limit', due_at: later(COORDINATOR_TIMING.pausedTickMs), dispatch_epoch: 1 });
      expect(slices.published).toEqual([]);
    });

    it.each([
      ['units free', 3],
      ['the limit is gone', null],
    ])('resumes a broadcast paused by the messaging limit when %s, dispatching its pending recipients at a raised epoch', async (_case, units) => {
      remaining = units;
      await step({ status: 'paused', pause_reason: 'messaging_limit' }, [aRecipient(broadcast, 0), aRecipient(broadcast, 1, { status: 'sent', message_id: 'm1' })]);
      expect(stored()).toMatchObject({ status: 'running', pause_reason: null, progress_at: clock.now(), due_at: later(COORDINATOR_TIMING.tickMs), dispatch_epoch: 2 });
      expect(slices.published).toEqual([{ business_id: BUSINESS, broadcast_id: 'bc1', from_seq: 0, to_seq: 1, epoch: 2 }]);
    });

    it.each(['manual', 'spam_rate_limit', 'template_not_approved'] as const)('leaves a broadcast paused %s to a caller once no send is in flight: counts refreshed, due never', async (reason) => {
      remaining = 100;
      await step({ status: 'paused', pause_reason: reason }, [aRecipient(broadcast, 0), aRecipient(broadcast, 1, { status: 'sent', message_id: 'm1' })]);
      expect(stored()).toMatchObject({ status: 'paused', pause_reason: reason, due_at: null, counts: { total: 2, pending: 1, sent: 1 }, counts_at: clock.now() });
      expect(slices.published).toEqual([]);
    });

    it.each(['manual', 'messaging_limit'] as const)('keeps the counts of a broadcast paused %s current while sends are in flight, settling a claim whose sender died without sending it', async (reason) => {
      remaining = 0;
      const pausedAt = clock.now();
      const recipients = [aRecipient(broadcast, 0, { status: 'sending', claimed_at: pausedAt }), aRecipient(broadcast, 1, { status: 'sending', claimed_at: pausedAt }), aRecipient(broadcast, 2)];
      await step({ status: 'paused', pause_reason: reason }, recipients);
      expect(stored()).toMatchObject({ status: 'paused', due_at: later(COORDINATOR_TIMING.tickMs), counts: { total: 3, pending: 3 }, counts_at: clock.now() });
      expect(asked).toEqual([]);

      // Seq 0's call went through after the pause; the sender of seq 1 died before its call (no message).
      await ports.store.recipients.finish(scope, recipient(0)._id, { status: 'sent', message_id: 'm0', sent_at: clock.now() });
      clock.advance(COORDINATOR_TIMING.staleClaimMs + 1);
      await coordinateBroadcast(ports, (await ports.store.broadcasts.claim(scope, stored(), later(COORDINATOR_TIMING.leaseMs)))!);
      expect(recipient(1)).toMatchObject({ status: 'pending', claimed_at: null });
      expect(stored()).toMatchObject({
        status: 'paused',
        due_at: reason === 'manual' ? null : later(COORDINATOR_TIMING.pausedTickMs),
        counts: { total: 3, pending: 2, sent: 1 },
        counts_at: clock.now(),
      });
      // Released, not dispatched: the broadcast is paused.
      expect(slices.published).toEqual([]);
    });

    it('settles a cancelled broadcast: the pending recipients a freeze in flight inserted late become skipped cancelled, final counts, due never', async () => {
      const recipients = [aRecipient(broadcast, 0, { status: 'skipped', reason: 'cancelled' }), aRecipient(broadcast, 1, { status: 'sent', message_id: 'm1' }), aRecipient(broadcast, 2), aRecipient(broadcast, 3)];
      await step({ status: 'cancelled', finished_at: ago(15_000) }, recipients);
      expect(recipient(2)).toMatchObject({ status: 'skipped', reason: 'cancelled' });
      expect(recipient(3)).toMatchObject({ status: 'skipped', reason: 'cancelled' });
      expect(stored()).toMatchObject({
        status: 'cancelled',
        due_at: null,
        counts: { total: 4, pending: 0, sent: 1, skipped: 3 },
        skipped_by_reason: { cancelled: 3 },
        counts_at: clock.now(),
      });
    });

    it('keeps a cancelled broadcast due every tick while a claim is in flight, and settles the claim once its sender is gone', async () => {
      const cancelledAt = clock.now();
      const recipients = [aRecipient(broadcast, 0, { status: 'sending', claimed_at: cancelledAt }), aRecipient(broadcast, 1, { status: 'sending', claimed_at: cancelledAt }), aRecipient(broadcast, 2)];
      await step({ status: 'cancelled', finished_at: cancelledAt }, recipients);
      expect(stored()).toMatchObject({ due_at: later(COORDINATOR_TIMING.tickMs), counts: { total: 3, pending: 2, skipped: 1 } });
      expect(asked).toEqual([]);

      // The sender of seq 0 died before its call (no message); seq 1's call went through.
      outcomes.set(recipientOperationId(recipient(1)), { kind: 'sent', message_id: 'm1', sent_at: cancelledAt });
      clock.advance(COORDINATOR_TIMING.staleClaimMs + 1);
      await coordinateBroadcast(ports, (await ports.store.broadcasts.claim(scope, stored(), later(COORDINATOR_TIMING.leaseMs)))!);
      expect(recipient(0)).toMatchObject({ status: 'skipped', reason: 'cancelled' });
      expect(recipient(1)).toMatchObject({ status: 'sent', message_id: 'm1' });
      expect(stored()).toMatchObject({ due_at: null, counts: { total: 3, pending: 0, sent: 1, skipped: 2 } });
      // Released, not dispatched: the broadcast is cancelled.
      expect(slices.published).toEqual([]);
    });

    it('settles a claim of a cancelled broadcast whose sender died, so every recipient ends in a final state', async () => {
      const state = { store: ports.store, events, slices, clock };
      data.broadcasts.push(aBroadcast());
      data.recipients.push(aRecipient(broadcast, 0, { status: 'sending', claimed_at: clock.now() }), aRecipient(broadcast, 1));
      await changeBroadcastState(state, scope, 'bc1', 'cancel');
      for (let tick = 0; tick < 30 && stored().due_at; tick += 1) {
        clock.advance(COORDINATOR_TIMING.tickMs);
        const due = await ports.store.broadcasts.claim(scope, stored(), later(COORDINATOR_TIMING.leaseMs));
        if (due) await coordinateBroadcast(ports, due);
      }
      expect(recipient(0).status).not.toBe('sending');
      expect(stored()).toMatchObject({ due_at: null, counts: { pending: 0 } });
    });

    it.each(['completed', 'failed'] as const)('makes a %s broadcast due never', async (status) => {
      await step({ status });
      expect(stored()).toMatchObject({ status, due_at: null });
    });
  });
});
