import type { ScheduledMessageCommand } from '@cmsg/conversation-commands';
import type { DueSchedule } from '@cmsg/dal';
import { createLogger } from '@cmsg/platform';
import { InMemorySchedules } from '../testing/in-memory-firing-store';
import { FiringPass } from './firing-pass';

const logger = createLogger('firing-pass-spec', 'silent');
const MINUTE = Date.UTC(2031, 0, 1, 10, 0);

function schedule(n: number, dueAt: number, fields: Partial<DueSchedule> = {}): DueSchedule {
  return {
    _id: `${String(n).padStart(8, '0')}-aaaa-4aaa-8aaa-aaaaaaaaaaaa`,
    business_id: 'b1',
    conversation_id: `${String(n).padStart(8, '0')}-1111-4111-8111-111111111111`,
    status: 'pending',
    is_tester: false,
    executor_kind: 'human_user',
    created_by_token_id: 'token-1',
    schedule_at: new Date(dueAt),
    ...fields,
  };
}

describe('FiringPass', () => {
  const setup = (options: { readAheadMs?: number } = {}) => {
    const store = new InMemorySchedules();
    const produced: string[] = [];
    const publisher = {
      submit: async () => undefined,
      submitMany: async (entries: readonly { command: ScheduledMessageCommand }[]) => void produced.push(...entries.map((entry) => entry.command.schedule_uuid)),
    };
    let now = MINUTE - 10_000;
    const clock = { now: () => new Date(now) };
    const pass = new FiringPass({ repository: store, businesses: { testerClockOffsetsInAnyBusiness: async () => new Map() }, publisher, clock, logger }, { replicaId: 'r1', firstChunk: 0, ...options });
    return { store, produced, pass, at: (ms: number) => (now = ms) };
  };

  it('reads what falls due at the minute a few seconds ahead, and the pass at the minute claims it without reading first', async () => {
    const { store, produced, pass, at } = setup();
    for (const n of [1, 2, 3]) store.add(schedule(n, MINUTE));
    at(MINUTE - 2_000);
    expect(await pass.run()).toEqual({ fired: 0, full: false });
    expect(store.dueReads.map((read) => read.getTime())).toEqual([MINUTE - 2_000, MINUTE]);

    at(MINUTE + 5);
    expect(await pass.run()).toEqual({ fired: 3, full: true });
    expect(store.dueReads).toHaveLength(2);
    expect(produced.sort()).toEqual([1, 2, 3].map((n) => schedule(n, MINUTE)._id));
  });

  it('claims only what is still pending of what it read ahead, and the pass that follows at once finds what was created since', async () => {
    const { store, produced, pass, at } = setup();
    for (const n of [1, 2]) store.add(schedule(n, MINUTE));
    at(MINUTE - 1_500);
    await pass.run();
    store.state.get(schedule(1, MINUTE)._id)!.status = 'cancelled';
    store.add(schedule(3, MINUTE));

    at(MINUTE + 5);
    expect(await pass.run()).toEqual({ fired: 1, full: true });
    expect(produced).toEqual([schedule(2, MINUTE)._id]);
    expect(await pass.run()).toEqual({ fired: 1, full: false });
    expect(produced).toEqual([schedule(2, MINUTE)._id, schedule(3, MINUTE)._id]);
  });

  it('reads ahead once per minute, only within readAheadMs of it, never when readAheadMs is 0, and keeps a read-ahead until its minute', async () => {
    const early = setup();
    early.at(MINUTE - 3_500);
    await early.pass.run();
    expect(early.store.dueReads.map((read) => read.getTime())).toEqual([MINUTE - 3_500]);
    early.at(MINUTE - 2_500);
    await early.pass.run();
    early.at(MINUTE - 1_500);
    await early.pass.run();
    // The pass before the minute reads what is due now, not the read-ahead of the minute to come.
    expect(early.store.dueReads.map((read) => read.getTime())).toEqual([MINUTE - 3_500, MINUTE - 2_500, MINUTE, MINUTE - 1_500]);

    const off = setup({ readAheadMs: 0 });
    off.at(MINUTE - 1_000);
    await off.pass.run();
    off.at(MINUTE + 5);
    await off.pass.run();
    expect(off.store.dueReads.map((read) => read.getTime())).toEqual([MINUTE - 1_000, MINUTE + 5]);
  });
});
