import { businessScope } from '@cmsg/dal';
import { MAX_CHANGE_ROUNDS } from '../conversation/conversation-change';
import { aiEmployeeRow } from '../testing/in-memory-ai-employees';
import { InMemoryAiAssignment } from '../testing/in-memory-ai-assignment';
import { scheduleRow } from '../testing/in-memory-schedules';
import { type AssignAiEmployeeCommand, assignAiEmployee } from './assign-ai-employee.usecase';

describe('assignAiEmployee', () => {
  const b1 = businessScope('b1');
  const NOW = new Date('2026-11-29T12:00:00.000Z');
  const byToken = { type: 'api_token' as const, uuid: 'tok-1' };
  let world: InMemoryAiAssignment;
  const assign = (command: Partial<AssignAiEmployeeCommand> = {}) =>
    assignAiEmployee(world.ports(), b1, { reference: { uuid: 'conv-ana' }, aiEmployee: { uuid: 'ai-new' }, scheduledMessageAction: undefined, policy: 'conflict', actor: byToken, ...command });
  const ana = () => world.lookup.conversationRows.find((row) => row._id === 'conv-ana')!;

  beforeEach(() => {
    world = new InMemoryAiAssignment(NOW);
    world.lookup.addContactWithConversation({ _id: 'ana', business_id: 'b1', channel_id: 'ch1', phone: '+5215511111111' }, { ai_employee_id: 'ai-old', event_sequence: 1 });
    world.aiEmployees.rows.push(
      aiEmployeeRow({ _id: 'ai-old', business_id: 'b1', name: 'Olga' }),
      aiEmployeeRow({ _id: 'ai-new', business_id: 'b1', name: 'Nina' }),
      aiEmployeeRow({ _id: 'ai-twin-1', business_id: 'b1', name: 'Twin' }),
      aiEmployeeRow({ _id: 'ai-twin-2', business_id: 'b1', name: 'Twin' }),
      aiEmployeeRow({ _id: 'ai-other', business_id: 'b2', name: 'Otto' }),
    );
  });

  it('sets the owner with one assignment_changed entry naming both sides, recorded at its sequence', async () => {
    expect(await assign()).toEqual({ conversation: { uuid: 'conv-ana' }, ai_employee: { uuid: 'ai-new', name: 'Nina' }, noop: false });
    expect(ana()).toMatchObject({ ai_employee_id: 'ai-new', updated_at: NOW, event_sequence: 2 });
    expect(world.outbox.recorded).toEqual([
      {
        collection: 'conversations',
        businessId: 'b1',
        documentId: 'conv-ana',
        entries: [
          expect.objectContaining({
            type: 'conversation.assignment_changed',
            data: { from: { type: 'ai_employee', uuid: 'ai-old', name: 'Olga' }, to: { type: 'ai_employee', uuid: 'ai-new', name: 'Nina' } },
            author: { type: 'api_token', uuid: 'tok-1', name: null },
            created_at: NOW,
            sequence: 2,
          }),
        ],
      },
    ]);
  });

  it('finds the employee by name, case-insensitively', async () => {
    expect(await assign({ aiEmployee: { name: 'nINA' } })).toMatchObject({ ai_employee: { uuid: 'ai-new' }, noop: false });
  });

  it('names the human team as the side it replaces when no AI owned the conversation', async () => {
    ana().ai_employee_id = null;
    await assign();
    expect(world.outbox.recorded[0]!.entries[0]!.data).toEqual({ from: { type: 'human', uuid: null, name: null }, to: { type: 'ai_employee', uuid: 'ai-new', name: 'Nina' } });
  });

  it('answers AI_EMPLOYEE_ALREADY_ASSIGNED under the conflict policy, a no-op under noop, changing nothing', async () => {
    await expect(assign({ aiEmployee: { uuid: 'ai-old' } })).rejects.toMatchObject({ code: 'AI_EMPLOYEE_ALREADY_ASSIGNED' });
    expect(await assign({ aiEmployee: { uuid: 'ai-old' }, policy: 'noop' })).toEqual({ conversation: { uuid: 'conv-ana' }, ai_employee: { uuid: 'ai-old', name: 'Olga' }, noop: true });
    expect(world.outbox.recorded).toEqual([]);
  });

  it('answers as already assigned when a concurrent request set the same employee first', async () => {
    const changeOwner = world.changes.changeOwner.bind(world.changes);
    world.changes.changeOwner = async (scope, id, change) => {
      ana().ai_employee_id = 'ai-new';
      world.changes.changeOwner = changeOwner;
      return changeOwner(scope, id, change);
    };
    expect(await assign({ policy: 'noop' })).toMatchObject({ ai_employee: { uuid: 'ai-new' }, noop: true });
    expect(world.outbox.recorded).toEqual([]);
  });

  it('reassigns a pending schedule to the new employee before the owner changes', async () => {
    world.schedules.rows.push(scheduleRow({ _id: 's1', business_id: 'b1', conversation_id: 'conv-ana' }));
    await assign({ scheduledMessageAction: 'reassign' });
    expect(world.schedules.rows[0]).toMatchObject({ status: 'pending', executor_kind: 'ai_employee', ai_employee_id: 'ai-new', updated_at: NOW });
    expect(world.schedules.rows[0]!.history).toEqual([expect.objectContaining({ event: 'reassigned', status: 'pending', reason: 'owner_change', executor_kind: 'ai_employee', ai_employee_id: 'ai-new' })]);
    expect(ana().ai_employee_id).toBe('ai-new');
  });

  it('cancels a pending schedule with its scheduled_message.cancelled entry when asked to', async () => {
    world.schedules.rows.push(scheduleRow({ _id: 's1', business_id: 'b1', conversation_id: 'conv-ana' }));
    await assign({ scheduledMessageAction: 'cancel' });
    expect(world.schedules.rows[0]).toMatchObject({ status: 'cancelled' });
    expect(world.outbox.recorded.map((recorded) => [recorded.collection, recorded.entries[0]!.type])).toEqual([
      ['scheduled_messages', 'scheduled_message.cancelled'],
      ['conversations', 'conversation.assignment_changed'],
    ]);
  });

  it('answers SCHEDULED_MESSAGE_ACTION_REQUIRED when a schedule is pending and no action is given, changing nothing', async () => {
    world.schedules.rows.push(scheduleRow({ _id: 's1', business_id: 'b1', conversation_id: 'conv-ana' }));
    await expect(assign()).rejects.toMatchObject({ code: 'SCHEDULED_MESSAGE_ACTION_REQUIRED' });
    expect(ana().ai_employee_id).toBe('ai-old');
    expect(world.schedules.rows[0]!.status).toBe('pending');
  });

  it('answers SCHEDULED_MESSAGE_ACTION_INVALID for any other action, even with no schedule pending', async () => {
    await expect(assign({ scheduledMessageAction: 'keep' })).rejects.toMatchObject({ code: 'SCHEDULED_MESSAGE_ACTION_INVALID' });
    expect(ana().ai_employee_id).toBe('ai-old');
  });

  it('answers SCHEDULE_CONFLICT when a schedule became pending after the conversation was read', async () => {
    const original = world.schedules.pendingOfConversation.bind(world.schedules);
    let reads = 0;
    world.schedules.pendingOfConversation = async (scope, conversationId) => {
      reads += 1;
      // The first read (deciding what to do with a pending schedule) sees none; the check before the update sees one.
      if (reads === 2) world.schedules.rows.push(scheduleRow({ _id: 's-late', business_id: 'b1', conversation_id: 'conv-ana' }));
      return original(scope, conversationId);
    };
    await expect(assign()).rejects.toMatchObject({ code: 'SCHEDULE_CONFLICT' });
    expect(ana().ai_employee_id).toBe('ai-old');
  });

  it.each([
    [{ uuid: 'ai-nobody' }, 'AI_EMPLOYEE_NOT_FOUND'],
    [{ uuid: 'ai-other' }, 'AI_EMPLOYEE_NOT_FOUND'],
    [{ name: 'Twin' }, 'AMBIGUOUS_AI_EMPLOYEE'],
  ])('answers %j with %s, changing nothing', async (aiEmployee, code) => {
    await expect(assign({ aiEmployee })).rejects.toMatchObject({ code });
    expect(ana().ai_employee_id).toBe('ai-old');
  });

  it.each([
    [{ uuid: 'conv-nobody' }, 'CONVERSATION_NOT_FOUND'],
    [{ phone: '+5215511111111', channel: 'nope' }, 'CHANNEL_NOT_FOUND'],
    [{}, 'INVALID_REQUEST'],
  ])('answers the conversation reference %j with %s', async (reference, code) => {
    await expect(assign({ reference })).rejects.toMatchObject({ code });
  });

  it('answers UPDATE_FAILED when every round loses to a concurrent change', async () => {
    world.changes.losses = MAX_CHANGE_ROUNDS;
    await expect(assign()).rejects.toMatchObject({ code: 'UPDATE_FAILED' });
    expect(world.outbox.recorded).toEqual([]);
  });
});
