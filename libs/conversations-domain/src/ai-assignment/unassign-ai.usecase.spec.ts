import { businessScope } from '@cmsg/dal';
import { MAX_CHANGE_ROUNDS } from '../conversation/conversation-change';
import { aiEmployeeRow } from '../testing/in-memory-ai-employees';
import { InMemoryAiAssignment } from '../testing/in-memory-ai-assignment';
import { scheduleRow } from '../testing/in-memory-schedules';
import { type UnassignAiCommand, unassignAi } from './unassign-ai.usecase';

describe('unassignAi', () => {
  const b1 = businessScope('b1');
  const NOW = new Date('2026-11-29T12:00:00.000Z');
  const byToken = { type: 'api_token' as const, uuid: 'tok-1' };
  let world: InMemoryAiAssignment;
  const unassign = (command: Partial<UnassignAiCommand> = {}) =>
    unassignAi(world.ports(), b1, { reference: { uuid: 'conv-ana' }, scheduledMessageAction: undefined, handToHuman: false, actor: byToken, ...command });
  const ana = () => world.lookup.conversationRows.find((row) => row._id === 'conv-ana')!;
  const recordedTypes = () => world.outbox.recorded.flatMap((recorded) => recorded.entries.map((entry) => entry.type));

  beforeEach(() => {
    world = new InMemoryAiAssignment(NOW);
    world.lookup.addContactWithConversation({ _id: 'ana', business_id: 'b1', channel_id: 'ch1' }, { ai_employee_id: 'ai-olga', inbox_status: 'resolved', event_sequence: 1 });
    world.aiEmployees.rows.push(aiEmployeeRow({ _id: 'ai-olga', business_id: 'b1', name: 'Olga' }));
  });

  it('hands the conversation to the human team with one assignment_changed entry', async () => {
    expect(await unassign()).toEqual({ conversation: { uuid: 'conv-ana' }, inbox_status: 'resolved', noop: false });
    expect(ana()).toMatchObject({ ai_employee_id: null, inbox_status: 'resolved', updated_at: NOW });
    expect(world.outbox.recorded).toEqual([
      {
        collection: 'conversations',
        businessId: 'b1',
        documentId: 'conv-ana',
        entries: [
          expect.objectContaining({
            type: 'conversation.assignment_changed',
            data: { from: { type: 'ai_employee', uuid: 'ai-olga', name: 'Olga' }, to: { type: 'human', uuid: null, name: null } },
            sequence: 2,
          }),
        ],
      },
    ]);
  });

  it('is a no-op when no AI owns the conversation', async () => {
    ana().ai_employee_id = null;
    expect(await unassign()).toEqual({ conversation: { uuid: 'conv-ana' }, inbox_status: 'resolved', noop: true });
    expect(world.outbox.recorded).toEqual([]);
  });

  it('with the handoff, also sets pending (human_handoff) after the owner change', async () => {
    expect(await unassign({ handToHuman: true })).toEqual({ conversation: { uuid: 'conv-ana' }, inbox_status: 'pending', noop: false });
    expect(ana()).toMatchObject({ ai_employee_id: null, inbox_status: 'pending', pending_reason: 'human_handoff' });
    expect(recordedTypes()).toEqual(['conversation.assignment_changed', 'conversation.inbox_status_changed']);
  });

  it('with the handoff and no AI, still sets pending; a no-op only when it was pending already', async () => {
    ana().ai_employee_id = null;
    expect(await unassign({ handToHuman: true })).toEqual({ conversation: { uuid: 'conv-ana' }, inbox_status: 'pending', noop: false });
    expect(recordedTypes()).toEqual(['conversation.inbox_status_changed']);
    expect(await unassign({ handToHuman: true })).toEqual({ conversation: { uuid: 'conv-ana' }, inbox_status: 'pending', noop: true });
    expect(recordedTypes()).toHaveLength(1);
  });

  it("gives a pending schedule to the humans with its own template, else the channel's default", async () => {
    world.schedules.rows.push(scheduleRow({ _id: 's1', business_id: 'b1', conversation_id: 'conv-ana', ai_employee_id: 'ai-olga', template_id: 'tpl-own' }));
    await unassign({ scheduledMessageAction: 'reassign' });
    expect(world.schedules.rows[0]).toMatchObject({ status: 'pending', executor_kind: 'human_user', ai_employee_id: null, template_id: 'tpl-own', message_kind: 'template' });

    world.schedules.rows.length = 0;
    ana().ai_employee_id = 'ai-olga';
    world.defaultTemplates.set('ch1', 'tpl-default');
    world.schedules.rows.push(scheduleRow({ _id: 's2', business_id: 'b1', conversation_id: 'conv-ana', ai_employee_id: 'ai-olga' }));
    await unassign({ scheduledMessageAction: 'reassign' });
    expect(world.schedules.rows[0]).toMatchObject({ executor_kind: 'human_user', template_id: 'tpl-default' });
  });

  it('answers TEMPLATE_NOT_FOUND when a reassigned schedule has no template a human could send, changing nothing', async () => {
    world.schedules.rows.push(scheduleRow({ _id: 's1', business_id: 'b1', conversation_id: 'conv-ana', ai_employee_id: 'ai-olga' }));
    await expect(unassign({ scheduledMessageAction: 'reassign' })).rejects.toMatchObject({ code: 'TEMPLATE_NOT_FOUND' });
    expect(world.schedules.rows[0]).toMatchObject({ status: 'pending', executor_kind: 'ai_employee' });
    expect(ana().ai_employee_id).toBe('ai-olga');
  });

  it('cancels a pending schedule when asked to', async () => {
    world.schedules.rows.push(scheduleRow({ _id: 's1', business_id: 'b1', conversation_id: 'conv-ana', ai_employee_id: 'ai-olga' }));
    await unassign({ scheduledMessageAction: 'cancel' });
    expect(world.schedules.rows[0]!.status).toBe('cancelled');
    expect(recordedTypes()).toEqual(['scheduled_message.cancelled', 'conversation.assignment_changed']);
  });

  it('answers SCHEDULED_MESSAGE_ACTION_REQUIRED and SCHEDULED_MESSAGE_ACTION_INVALID as assigning does', async () => {
    await expect(unassign({ scheduledMessageAction: 'drop' })).rejects.toMatchObject({ code: 'SCHEDULED_MESSAGE_ACTION_INVALID' });
    world.schedules.rows.push(scheduleRow({ _id: 's1', business_id: 'b1', conversation_id: 'conv-ana', ai_employee_id: 'ai-olga' }));
    await expect(unassign()).rejects.toMatchObject({ code: 'SCHEDULED_MESSAGE_ACTION_REQUIRED' });
    expect(ana().ai_employee_id).toBe('ai-olga');
  });

  it('answers CONVERSATION_NOT_FOUND for a conversation of another business', async () => {
    world.lookup.addContactWithConversation({ _id: 'cy', business_id: 'b2', channel_id: 'ch9' }, { ai_employee_id: 'ai-x' });
    await expect(unassign({ reference: { uuid: 'conv-cy' } })).rejects.toMatchObject({ code: 'CONVERSATION_NOT_FOUND' });
  });

  it('answers UPDATE_FAILED when every round loses to a concurrent change', async () => {
    world.changes.losses = MAX_CHANGE_ROUNDS;
    await expect(unassign()).rejects.toMatchObject({ code: 'UPDATE_FAILED' });
  });
});
