import { scheduleHistoryEntry } from '@cmsg/conversation-commands';
import { businessScope, pendingConversationKey } from '@cmsg/dal';
import { InMemorySchedulingWorld } from '../testing/in-memory-scheduling-ports';
import { addBusiness, addConversation, addSchedule } from '../testing/scheduling-builders';
import { cancelScheduledMessage } from './cancel-scheduled-message.usecase';

const scope = businessScope('b1');
const actor = { type: 'api_token' as const, uuid: 'token-9' };

describe('cancelScheduledMessage', () => {
  let world: InMemorySchedulingWorld;
  let conversation: string;

  beforeEach(() => {
    world = new InMemorySchedulingWorld();
    addBusiness(world, 'b1');
    addBusiness(world, 'b2');
    conversation = addConversation(world, 'b1');
  });

  it('cancels a pending schedule with its history entry and event, and releases the conversation', async () => {
    const id = addSchedule(world, 'b1', conversation);
    world.advance(5 * 60_000);
    const view = await cancelScheduledMessage(scope, id, actor, world.ports());

    expect(view).toMatchObject({ uuid: id, status: 'cancelled', updated_at: '2026-03-02T12:05:00.000Z' });
    expect(view.history.map((entry) => [entry.event, entry.status, entry.reason, entry.actor])).toEqual([
      ['created', 'pending', undefined, { type: 'api_token', uuid: 'token-1' }],
      ['cancelled', 'cancelled', 'api_request', actor],
    ]);
    const stored = world.scheduleById(id)!;
    expect(stored).toMatchObject({ status: 'cancelled', updated_at: world.now });
    expect(stored.pending_conversation_key).toBeUndefined();
    expect(await world.ports().schedules.pendingOfConversation(scope, conversation)).toBeNull();
    expect(stored.outbox).toEqual([expect.objectContaining({ type: 'scheduled_message.cancelled', conversation_id: conversation })]);
    expect(world.recorded).toEqual([{ collection: 'scheduled_messages', businessId: 'b1', documentId: id, entry: stored.outbox![0] }]);
  });

  it('answers a schedule cancelled already as it is, recording nothing again (a retried DELETE succeeds)', async () => {
    const id = addSchedule(world, 'b1', conversation);
    const first = await cancelScheduledMessage(scope, id, actor, world.ports());
    world.advance(60_000);
    const again = await cancelScheduledMessage(scope, id, actor, world.ports());
    expect(again).toEqual(first);
    expect(world.recorded).toHaveLength(1);
  });

  it.each(['firing', 'sending', 'sent', 'failed'] as const)('answers SCHEDULE_CONFLICT for a schedule %s, changing nothing', async (status) => {
    const id = addSchedule(world, 'b1', conversation, { status });
    const before = structuredClone(world.scheduleById(id));
    await expect(cancelScheduledMessage(scope, id, actor, world.ports())).rejects.toMatchObject({
      code: 'SCHEDULE_CONFLICT',
      message: 'The scheduled message already fired; it cannot be cancelled.',
    });
    expect(world.scheduleById(id)).toEqual(before);
    expect(world.recorded).toEqual([]);
  });

  it('judges by the schedule as it is after the update: fired since the read is SCHEDULE_CONFLICT, cancelled since the read is answered', async () => {
    const fired = addSchedule(world, 'b1', conversation);
    const ports = world.ports();
    const firedFirst = {
      ...ports,
      schedules: {
        ...ports.schedules,
        cancelPending: async (...args: Parameters<typeof ports.schedules.cancelPending>) => {
          Object.assign(world.scheduleById(fired)!, { status: 'firing', pending_conversation_key: undefined });
          return ports.schedules.cancelPending(...args);
        },
      },
    };
    await expect(cancelScheduledMessage(scope, fired, actor, firedFirst)).rejects.toMatchObject({ code: 'SCHEDULE_CONFLICT' });

    const other = addConversation(world, 'b1');
    const replied = addSchedule(world, 'b1', other);
    const customerFirst = {
      ...ports,
      schedules: {
        ...ports.schedules,
        cancelPending: async (...args: Parameters<typeof ports.schedules.cancelPending>) => {
          const reply = scheduleHistoryEntry('cancelled', 'cancelled', world.now, { reason: 'customer_reply' });
          await ports.schedules.cancelPending(scope, replied, reply, args[3]);
          return ports.schedules.cancelPending(...args);
        },
      },
    };
    const view = await cancelScheduledMessage(scope, replied, actor, customerFirst);
    expect(view).toMatchObject({ uuid: replied, status: 'cancelled' });
    expect(view.history.at(-1)).toMatchObject({ event: 'cancelled', reason: 'customer_reply' });
    expect(world.recorded).toEqual([]);
  });

  it("answers SCHEDULED_MESSAGE_NOT_FOUND for an unknown id and for another business's schedule, which stays pending", async () => {
    const theirConversation = addConversation(world, 'b2');
    const theirs = addSchedule(world, 'b2', theirConversation);
    for (const id of ['00000000-0000-4000-8000-00000000ffff', theirs]) {
      await expect(cancelScheduledMessage(scope, id, actor, world.ports())).rejects.toMatchObject({
        code: 'SCHEDULED_MESSAGE_NOT_FOUND',
        message: `No scheduled message ${id} in this business.`,
      });
    }
    expect(world.scheduleById(theirs)).toMatchObject({ status: 'pending', pending_conversation_key: pendingConversationKey(businessScope('b2'), theirConversation) });
    expect(world.recorded).toEqual([]);
  });
});
