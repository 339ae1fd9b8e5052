import type { ScheduledMessageCommand } from '@cmsg/conversation-commands';
import type { DueSchedule } from '@cmsg/dal';
import { createLogger } from '@cmsg/platform';
import { fireDueSchedules } from './fire-due-schedules';
import { InMemorySchedules } from '../testing/in-memory-firing-store';

const logger = createLogger('fire-due-schedules-spec', 'silent');
const now = new Date('2031-01-01T10:00:05Z');

class RecordingPublisher {
  readonly batches: string[][] = [];
  failNext = false;
  constructor(private readonly calls: string[] = []) {}
  async submit(): Promise<void> {
    throw new Error('the firer produces in batches');
  }
  async submitMany(entries: readonly { conversationId: string; command: ScheduledMessageCommand }[]): Promise<void> {
    if (this.failNext) {
      this.failNext = false;
      throw new Error('broker unavailable');
    }
    this.calls.push(`produce ${entries.length}`);
    this.batches.push(entries.map((entry) => entry.command.schedule_uuid));
  }
}

const due = (id: string): DueSchedule => ({
  _id: id,
  business_id: 'b1',
  conversation_id: `${id.slice(0, 8)}-1111-4111-8111-111111111111`,
  status: 'pending',
  is_tester: false,
  executor_kind: 'human_user',
  created_by_token_id: 'token-1',
  schedule_at: new Date('2031-01-01T10:00:00Z'),
});
const idOf = (n: number) => `${String(n).padStart(8, '0')}-aaaa-4aaa-8aaa-aaaaaaaaaaaa`;

describe('fireDueSchedules (the firing step)', () => {
  const options = { replicaId: 'replica-1', leaseMs: 30_000, chunkSize: 3, firstChunk: 0 };
  const setup = (count: number) => {
    const ids = Array.from({ length: count }, (_, index) => idOf(index));
    const repository = new InMemorySchedules(ids);
    const publisher = new RecordingPublisher(repository.calls);
    return { ids, repository, publisher, dependencies: { repository, publisher, clock: { now: () => now }, logger } };
  };

  it('claims every chunk, then produces each, then marks each produced, reading nothing back when a claim takes its whole chunk', async () => {
    const { ids, repository, publisher, dependencies } = setup(7);
    expect(await fireDueSchedules({ pending: ids.map(due), leaseExpired: [] }, dependencies, options)).toBe(7);
    expect(publisher.batches).toEqual([ids.slice(0, 3), ids.slice(3, 6), ids.slice(6)]);
    expect(repository.calls).toEqual(['claim 3', 'claim 3', 'claim 1', 'produce 3', 'produce 3', 'produce 1', 'mark 3', 'mark 3', 'mark 1']);
    expect([...repository.state.values()].every((schedule) => schedule.status === 'firing' && schedule.produced && schedule.producedAt === now)).toBe(true);
    expect(repository.claimReads).toBe(0);
  });

  it('starts from the chunk it is told to and wraps around, so replicas that found the same schedules start apart', async () => {
    const { ids, publisher, dependencies } = setup(7);
    expect(await fireDueSchedules({ pending: ids.map(due), leaseExpired: [] }, dependencies, { ...options, firstChunk: 4 })).toBe(7);
    expect(publisher.batches).toEqual([ids.slice(3, 6), ids.slice(6), ids.slice(0, 3)]);
  });

  it('claims from a random chunk when none is named, each schedule still once', async () => {
    const { ids, repository, publisher, dependencies } = setup(30);
    const { firstChunk: _named, ...unnamed } = options;
    expect(await fireDueSchedules({ pending: ids.map(due), leaseExpired: [] }, dependencies, unnamed)).toBe(30);
    expect(publisher.batches.flat().sort()).toEqual(ids);
    expect(repository.calls.filter((call) => call.startsWith('claim'))).toHaveLength(10);
  });

  it('produces only what its claim holds when part of a chunk was cancelled or claimed first', async () => {
    const { ids, repository, publisher, dependencies } = setup(3);
    repository.state.set(ids[1]!, { status: 'cancelled', claim: null, produced: false });
    expect(await fireDueSchedules({ pending: ids.map(due), leaseExpired: [] }, dependencies, options)).toBe(2);
    expect(publisher.batches).toEqual([[ids[0], ids[2]]]);
    expect(repository.claimReads).toBe(1);
    expect(await fireDueSchedules({ pending: ids.map(due), leaseExpired: [] }, dependencies, options)).toBe(0);
    expect(publisher.batches).toHaveLength(1);
  });

  it('leaves a chunk whose produce failed claimed and unmarked (taken over after its lease), and goes on with the next', async () => {
    const { ids, repository, publisher, dependencies } = setup(6);
    publisher.failNext = true;
    expect(await fireDueSchedules({ pending: ids.map(due), leaseExpired: [] }, dependencies, options)).toBe(3);
    expect(ids.slice(0, 3).map((id) => repository.state.get(id))).toEqual(ids.slice(0, 3).map(() => expect.objectContaining({ status: 'firing', produced: false })));
    expect(await fireDueSchedules({ pending: [], leaseExpired: ids.slice(0, 3).map(due) }, dependencies, options)).toBe(3);
    expect(publisher.batches).toEqual([ids.slice(3), ids.slice(0, 3)]);
  });

  it('builds each command from the due schedule, fired at the claim', async () => {
    const { ids, dependencies } = setup(1);
    const commands: ScheduledMessageCommand[] = [];
    const publisher = { submit: async () => undefined, submitMany: async (entries: readonly { conversationId: string; command: ScheduledMessageCommand }[]) => void commands.push(...entries.map((entry) => entry.command)) };
    await fireDueSchedules({ pending: ids.map(due), leaseExpired: [] }, { ...dependencies, publisher }, options);
    expect(commands).toEqual([
      {
        kind: 'scheduled_message',
        schedule_uuid: ids[0],
        business_id: 'b1',
        conversation_uuid: due(ids[0]!).conversation_id,
        token_uuid: 'token-1',
        executor_kind: 'human_user',
        due_at: '2031-01-01T10:00:00.000Z',
        fired_at: now.toISOString(),
        request_id: null,
      },
    ]);
  });
});
