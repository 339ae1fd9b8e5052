import { type BroadcastEntity, type BroadcastRecipientEntity, type BusinessScope, businessScope } from '@cmsg/dal';
import { CatalogError } from '@cmsg/errors';
import type { SendSlice } from '../core/broadcast-ports';
import { COORDINATOR_TIMING } from '../coordinate/coordinate-broadcast.usecase';
import { changeBroadcastState } from '../state/change-broadcast-state.usecase';
import { BUSINESS, aBroadcast, aRecipient } from '../testing/broadcast-builders';
import { type BroadcastData, inMemoryBroadcastStore } from '../testing/in-memory-broadcast-store';
import { type TestClock, recordingEvents, recordingSlices, testClock } from '../testing/in-memory-broadcast-ports';
import { recentBroadcastStates } from '../core/broadcast-states';
import { type BroadcastSendRequest, type SenderPorts, sendSlice } from './send-slice.usecase';

const scope = businessScope(BUSINESS);
const slice = (from_seq: number, to_seq: number, epoch = 1): SendSlice => ({ business_id: BUSINESS, broadcast_id: 'bc1', from_seq, to_seq, epoch });
const tick = () => new Promise((resolve) => setImmediate(resolve));

type Answer = { messageId: string } | Error;

describe('sendSlice', () => {
  let data: BroadcastData;
  let clock: TestClock;
  let events: ReturnType<typeof recordingEvents>;
  /** What the send of a conversation answers (default: sent, message `msg-<conversation>`). */
  let answers: Map<string, Answer>;
  let requests: BroadcastSendRequest[];
  /** The recipient's state when its send was made. */
  let statusAtSend: string[];
  /** The broadcast's state when each send was made. */
  let broadcastAtSend: string[];
  let inFlight: number;
  let mostInFlight: number;
  let onSend: (request: BroadcastSendRequest) => Promise<void>;
  let ports: SenderPorts;
  const broadcast = aBroadcast();

  beforeEach(() => {
    data = { broadcasts: [aBroadcast({ max_per_second: 25, header: { type: 'text', text: 'Hi' }, button_parameters: [{ index: 0, sub_type: 'url', value: 'x' }] })], recipients: [] };
    clock = testClock('2026-03-02T18:00:00Z');
    events = recordingEvents();
    answers = new Map();
    requests = [];
    statusAtSend = [];
    broadcastAtSend = [];
    inFlight = 0;
    mostInFlight = 0;
    onSend = async () => undefined;
    const store = inMemoryBroadcastStore(data);
    ports = {
      store,
      events,
      clock,
      states: recentBroadcastStates(store, clock),
      sendTemplate: async (_scope: BusinessScope, request: BroadcastSendRequest) => {
        requests.push(request);
        statusAtSend.push(data.recipients.find((recipient) => `broadcast:${recipient._id}:${recipient.attempt}` === request.operationId)?.status ?? 'none');
        broadcastAtSend.push(data.broadcasts[0]?.status ?? 'none');
        inFlight += 1;
        mostInFlight = Math.max(mostInFlight, inFlight);
        await tick();
        await onSend(request);
        inFlight -= 1;
        const answer = answers.get(request.conversationId) ?? { messageId: `msg-${request.conversationId}` };
        if (answer instanceof Error) throw answer;
        return answer;
      },
    };
  });

  const pending = (...seqs: number[]) => data.recipients.push(...seqs.map((seq) => aRecipient(broadcast, seq)));
  const recipient = (seq: number): BroadcastRecipientEntity => data.recipients.find((candidate) => candidate.seq === seq)!;
  const stored = (): BroadcastEntity => data.broadcasts[0]!;
  const sentTo = () => requests.map((request) => request.conversationId);

  it('claims each pending recipient of the slice, sends it once and stores its message', async () => {
    pending(0, 1, 2, 5);
    data.recipients.push(
      aRecipient(broadcast, 3, { status: 'sent', message_id: 'm3' }),
      aRecipient(broadcast, 4, { status: 'sending', claimed_at: clock.now() }),
      aRecipient(broadcast, 6, { status: 'skipped', reason: 'opted_out' }),
    );
    pending(7, 50);
    data.recipients.find((candidate) => candidate.seq === 2)!.attempt = 1;

    await expect(sendSlice(ports, slice(0, 50), { concurrency: 1 })).resolves.toEqual({ sent: 5, stopped: null });
    expect(sentTo()).toEqual(['conv-0', 'conv-1', 'conv-2', 'conv-5', 'conv-7']);
    expect(statusAtSend).toEqual(['sending', 'sending', 'sending', 'sending', 'sending']);
    expect(requests[2]).toEqual({
      conversationId: 'conv-2',
      operationId: 'broadcast:bc1-r2:1',
      broadcast: { uuid: 'bc1', maxPerSecond: 25 },
      template: { uuid: 'tpl-promo' },
      variables: [{ index: 1, value: 'Ana' }],
      header: { type: 'text', text: 'Hi' },
      buttonParameters: [{ index: 0, sub_type: 'url', value: 'x' }],
    });
    expect(recipient(0)).toMatchObject({ status: 'sent', message_id: 'msg-conv-0', sent_at: clock.now(), claimed_at: null });
    expect(recipient(3)).toMatchObject({ status: 'sent', message_id: 'm3' });
    expect(recipient(4)).toMatchObject({ status: 'sending' });
    expect(recipient(6)).toMatchObject({ status: 'skipped' });
    expect(recipient(50)).toMatchObject({ status: 'pending' });
  });

  it('asks for no rate of its own when the broadcast has no max_per_second', async () => {
    data.broadcasts = [aBroadcast({ max_per_second: null })];
    pending(0);
    await sendSlice(ports, slice(0, 1), { concurrency: 1 });
    expect(requests[0]!.broadcast).toEqual({ uuid: 'bc1', maxPerSecond: 0 });
  });

  it('keeps concurrency sends in flight at once', async () => {
    pending(...Array.from({ length: 20 }, (_, seq) => seq));
    await expect(sendSlice(ports, slice(0, 50), { concurrency: 4 })).resolves.toEqual({ sent: 20, stopped: null });
    expect(mostInFlight).toBe(4);
  });

  it('never sends a recipient twice when two overlapping slices run at once, or a slice is delivered again', async () => {
    pending(...Array.from({ length: 30 }, (_, seq) => seq));
    const results = await Promise.all([sendSlice(ports, slice(0, 20), { concurrency: 3 }), sendSlice(ports, slice(10, 30), { concurrency: 3 }), sendSlice(ports, slice(0, 30), { concurrency: 5 })]);
    expect(results.reduce((sum, result) => sum + result.sent, 0)).toBe(30);
    expect(sentTo().sort()).toEqual(Array.from({ length: 30 }, (_, seq) => `conv-${seq}`).sort());
    await expect(sendSlice(ports, slice(0, 30), { concurrency: 3 })).resolves.toEqual({ sent: 0, stopped: null });
    expect(requests).toHaveLength(30);
  });

  it('reads the broadcast once per 250 ms for all the slices this process sends at once', async () => {
    pending(0, 1, 2, 3, 4, 5, 6, 7);
    const findById = ports.store.broadcasts.findById;
    let reads = 0;
    ports.store.broadcasts.findById = async (...args) => {
      reads += 1;
      return findById(...args);
    };
    ports.states = recentBroadcastStates(ports.store, clock);
    await Promise.all([sendSlice(ports, slice(0, 4), { concurrency: 2 }), sendSlice(ports, slice(4, 8), { concurrency: 2 })]);
    expect(sentTo()).toHaveLength(8);
    expect(reads).toBe(1);
    clock.advance(250);
    pending(8);
    await sendSlice(ports, slice(8, 9), { concurrency: 1 });
    expect(reads).toBe(2);
  });

  it('fails a recipient without a conversation without sending', async () => {
    data.recipients.push(aRecipient(broadcast, 0, { conversation_id: null }));
    await expect(sendSlice(ports, slice(0, 1), { concurrency: 1 })).resolves.toEqual({ sent: 0, stopped: null });
    expect(requests).toEqual([]);
    expect(recipient(0)).toMatchObject({ status: 'failed', error: { code: 'CONVERSATION_NOT_FOUND', provider_code: null }, claimed_at: null });
  });

  describe('failures that end the recipient', () => {
    it('fails it with the code, message and provider code of a provider refusal, and goes on', async () => {
      pending(0, 1, 2);
      answers.set('conv-0', new CatalogError('SEND_FAILED', 'Recipient cannot be sent', { providerCode: '131026' }));
      answers.set('conv-1', new CatalogError('TEMPLATE_VARIABLES_INVALID', 'Variable 1 is missing'));
      await expect(sendSlice(ports, slice(0, 3), { concurrency: 1 })).resolves.toEqual({ sent: 1, stopped: null });
      expect(recipient(0)).toMatchObject({ status: 'failed', error: { code: 'SEND_FAILED', message: 'Recipient cannot be sent', provider_code: '131026' }, claimed_at: null });
      expect(recipient(1)).toMatchObject({ status: 'failed', error: { code: 'TEMPLATE_VARIABLES_INVALID', message: 'Variable 1 is missing', provider_code: null } });
      expect(recipient(2)).toMatchObject({ status: 'sent' });
    });

    it('skips it opted_out when the send refused it as opted out before any provider call', async () => {
      pending(0, 1);
      answers.set('conv-0', new CatalogError('CONTACT_OPTED_OUT', 'x'));
      answers.set('conv-1', new CatalogError('CONTACT_OPTED_OUT', 'x', { providerCode: '131050' }));
      await sendSlice(ports, slice(0, 2), { concurrency: 1 });
      expect(recipient(0)).toMatchObject({ status: 'skipped', reason: 'opted_out', error: null, claimed_at: null });
      expect(recipient(1)).toMatchObject({ status: 'failed', error: { code: 'CONTACT_OPTED_OUT', provider_code: '131050' } });
    });

    it('makes it unknown, never to be sent again, when the send failed without a provider answer', async () => {
      pending(0, 1);
      answers.set('conv-0', new CatalogError('SEND_FAILED', 'x', { providerCode: null }));
      await expect(sendSlice(ports, slice(0, 2), { concurrency: 1 })).resolves.toEqual({ sent: 1, stopped: null });
      expect(recipient(0)).toMatchObject({ status: 'unknown', error: null, claimed_at: null });
      await sendSlice(ports, slice(0, 2), { concurrency: 1 });
      expect(sentTo()).toEqual(['conv-0', 'conv-1']);
    });
  });

  describe('failures that stop the slice', () => {
    it.each([
      ['SERVICE_UNAVAILABLE', new CatalogError('SERVICE_UNAVAILABLE', 'x')],
      ['an error outside the catalog', new Error('14 UNAVAILABLE: No connection established')],
    ])('keeps the claim for the coordinator to settle and stops on %s', async (_case, error) => {
      pending(0, 1, 2);
      answers.set('conv-0', error);
      await expect(sendSlice(ports, slice(0, 3), { concurrency: 1 })).resolves.toEqual({ sent: 0, stopped: 'unavailable' });
      expect(recipient(0)).toMatchObject({ status: 'sending', claimed_at: clock.now() });
      expect([recipient(1).status, recipient(2).status]).toEqual(['pending', 'pending']);
      expect(stored().status).toBe('running');
    });

    it('releases the recipient as the same attempt and pauses the broadcast on MESSAGING_LIMIT_REACHED, due when units may free', async () => {
      pending(0, 1);
      answers.set('conv-0', new CatalogError('MESSAGING_LIMIT_REACHED', 'x', { retryAfterSeconds: 60 }));
      await expect(sendSlice(ports, slice(0, 2), { concurrency: 1 })).resolves.toEqual({ sent: 0, stopped: 'paused' });
      expect(recipient(0)).toMatchObject({ status: 'pending', attempt: 0, claimed_at: null, error: null });
      expect(recipient(1)).toMatchObject({ status: 'pending' });
      expect(stored()).toMatchObject({ status: 'paused', pause_reason: 'messaging_limit', due_at: new Date(clock.at.getTime() + COORDINATOR_TIMING.pausedTickMs) });
      expect(events.recorded.map((recorded) => [recorded.entry.type, recorded.entry.data['reason']])).toEqual([['broadcast.paused', 'messaging_limit']]);
    });

    it('releases the recipient as a new attempt and pauses every running broadcast of the channel on 131048 (spam rate limit)', async () => {
      data.broadcasts.push(aBroadcast({ _id: 'bc2' }), aBroadcast({ _id: 'other-channel', channel_id: 'ch2' }));
      pending(0, 1);
      answers.set('conv-0', new CatalogError('SEND_FAILED', 'Spam rate limit hit', { providerCode: '131048' }));
      await expect(sendSlice(ports, slice(0, 2), { concurrency: 1 })).resolves.toEqual({ sent: 0, stopped: 'paused' });
      expect(recipient(0)).toMatchObject({ status: 'pending', attempt: 1, claimed_at: null, error: null });
      expect(data.broadcasts.map((candidate) => [candidate._id, candidate.status, candidate.pause_reason, candidate.due_at])).toEqual([
        ['bc1', 'paused', 'spam_rate_limit', new Date(clock.at.getTime() + COORDINATOR_TIMING.tickMs)],
        ['bc2', 'paused', 'spam_rate_limit', new Date(clock.at.getTime() + COORDINATOR_TIMING.tickMs)],
        ['other-channel', 'running', null, broadcast.due_at],
      ]);
    });

    it('releases the recipient and pauses the broadcast on TEMPLATE_NOT_APPROVED', async () => {
      pending(0, 1);
      answers.set('conv-0', new CatalogError('TEMPLATE_NOT_APPROVED', 'The template is paused'));
      await expect(sendSlice(ports, slice(0, 2), { concurrency: 1 })).resolves.toEqual({ sent: 0, stopped: 'paused' });
      expect(recipient(0)).toMatchObject({ status: 'pending', attempt: 0 });
      expect(stored()).toMatchObject({ status: 'paused', pause_reason: 'template_not_approved', due_at: new Date(clock.at.getTime() + COORDINATOR_TIMING.tickMs) });
    });

    it('releases the recipient as the same attempt and stops when the send found the broadcast paused or cancelled while it waited', async () => {
      pending(0, 1);
      answers.set('conv-0', new CatalogError('BROADCAST_STATE_CONFLICT', 'x'));
      await expect(sendSlice(ports, slice(0, 2), { concurrency: 1 })).resolves.toEqual({ sent: 0, stopped: 'paused' });
      expect(recipient(0)).toMatchObject({ status: 'pending', attempt: 0, claimed_at: null });
      expect(recipient(1).status).toBe('pending');
      expect(events.recorded).toEqual([]);
    });

    it('lets the sends in flight end when one of them pauses the broadcast, and claims nobody after', async () => {
      pending(...Array.from({ length: 10 }, (_, seq) => seq));
      answers.set('conv-1', new CatalogError('MESSAGING_LIMIT_REACHED', 'x'));
      answers.set('conv-2', new CatalogError('MESSAGING_LIMIT_REACHED', 'x'));
      const result = await sendSlice(ports, slice(0, 10), { concurrency: 3 });
      expect(result.stopped).toBe('paused');
      // conv-0's worker took the next recipient before conv-1's answer came back; nobody after it.
      expect(sentTo()).toEqual(['conv-0', 'conv-1', 'conv-2', 'conv-3']);
      expect(broadcastAtSend).toEqual(['running', 'running', 'running', 'running']);
      expect(result.sent).toBe(2);
      expect(data.recipients.map((candidate) => candidate.status)).toEqual(['sent', 'pending', 'pending', 'sent', ...Array(6).fill('pending')]);
      expect(events.recorded).toHaveLength(1);
    });
  });

  describe('when not to send', () => {
    it('drops a slice of an older dispatch epoch, claiming nobody', async () => {
      data.broadcasts = [aBroadcast({ dispatch_epoch: 3 })];
      pending(0);
      await expect(sendSlice(ports, slice(0, 1, 2), { concurrency: 1 })).resolves.toEqual({ sent: 0, stopped: 'not_running' });
      expect(recipient(0).status).toBe('pending');
      await expect(sendSlice(ports, slice(0, 1, 3), { concurrency: 1 })).resolves.toEqual({ sent: 1, stopped: null });
    });

    it.each(['scheduled', 'preparing', 'paused', 'completed', 'cancelled'] as const)('sends nothing of a %s broadcast', async (status) => {
      data.broadcasts = [aBroadcast({ status })];
      pending(0);
      await expect(sendSlice(ports, slice(0, 1), { concurrency: 1 })).resolves.toEqual({ sent: 0, stopped: 'not_running' });
      expect(requests).toEqual([]);
    });

    it('sends nothing of an unknown broadcast', async () => {
      data.broadcasts = [];
      pending(0);
      await expect(sendSlice(ports, slice(0, 1), { concurrency: 1 })).resolves.toEqual({ sent: 0, stopped: 'not_running' });
    });

    it('stops when the broadcast is paused mid-slice, within the state it keeps for 250 ms', async () => {
      pending(0, 1, 2, 3);
      onSend = async (request) => {
        if (request.conversationId !== 'conv-1') return;
        await changeBroadcastState({ store: ports.store, events, slices: recordingSlices(), clock }, scope, 'bc1', 'pause');
        clock.advance(250);
      };
      await expect(sendSlice(ports, slice(0, 4), { concurrency: 1 })).resolves.toEqual({ sent: 2, stopped: 'not_running' });
      expect(data.recipients.map((candidate) => candidate.status)).toEqual(['sent', 'sent', 'pending', 'pending']);
    });

    it('stops, claiming nobody, outside the send window, and sends inside it', async () => {
      // 06:00 in Mexico City: before a 09:00-20:00 window.
      clock.at = new Date('2026-03-02T12:00:00Z');
      data.broadcasts = [aBroadcast({ send_window: { from: '09:00', to: '20:00' }, time_zone: 'America/Mexico_City' })];
      pending(0, 1, 2);
      await expect(sendSlice(ports, slice(0, 3), { concurrency: 1 })).resolves.toEqual({ sent: 0, stopped: 'outside_window' });
      expect(data.recipients.map((candidate) => candidate.status)).toEqual(['pending', 'pending', 'pending']);

      // 19:59:59.800 local: the first send goes, the window closes before the second.
      clock.at = new Date('2026-03-03T01:59:59.800Z');
      onSend = async () => clock.advance(300);
      await expect(sendSlice(ports, slice(0, 3), { concurrency: 1 })).resolves.toEqual({ sent: 1, stopped: 'outside_window' });
      expect(data.recipients.map((candidate) => candidate.status)).toEqual(['sent', 'pending', 'pending']);
    });
  });
});
