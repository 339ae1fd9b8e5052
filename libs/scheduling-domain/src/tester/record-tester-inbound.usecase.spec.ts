import { SYSTEM_ACTOR } from '@cmsg/conversation-commands';
import { businessScope } from '@cmsg/dal';
import { CatalogError } from '@cmsg/errors';
import { runWithRequestContext } from '@cmsg/platform';
import { InMemorySchedulingWorld } from '../testing/in-memory-scheduling-ports';
import { type ConversationSeed, addBusiness, addConversation, addSchedule } from '../testing/scheduling-builders';
import { recordTesterInbound } from './record-tester-inbound.usecase';

const scope = businessScope('b1');
const caller = { business_id: 'b1', token_uuid: 'token-1' };
const DAY_MS = 24 * 60 * 60 * 1000;
const REAL_NOW = '2026-03-02T12:00:00.000Z';
const VIRTUAL_NOW = '2026-03-04T12:00:00.000Z';

describe('recordTesterInbound', () => {
  let world: InMemorySchedulingWorld;
  const tester = (seed: ConversationSeed = {}) => addConversation(world, 'b1', { is_tester: true, last_inbound_at: null, contact_name: 'Tess Ter', ...seed });
  const write = (conversation: string, text = 'Hola, ¿tienen envío?', ports = world.ports()) => recordTesterInbound(scope, caller, { uuid: conversation }, text, ports);

  beforeEach(() => {
    world = new InMemorySchedulingWorld(REAL_NOW);
    addBusiness(world, 'b1', { tester_clock_offset_ms: 2 * DAY_MS });
    addBusiness(world, 'b2');
  });

  it('records the customer message at the virtual now and counts it on the conversation, with its message.received event', async () => {
    const conversation = tester();
    const answer = await write(conversation);

    const [message] = world.messages;
    expect(world.messages).toHaveLength(1);
    expect(message).toEqual({
      _id: answer.message_uuid,
      business_id: 'b1',
      conversation_id: conversation,
      is_from_customer: true,
      body: 'Hola, ¿tienen envío?',
      content_type: 'text',
      status: 'received',
      is_simulated: true,
      created_at: new Date(VIRTUAL_NOW),
    });
    expect(answer).toEqual({ conversation_uuid: conversation, message_uuid: message!._id, created_at: VIRTUAL_NOW, cancelled_schedules: [], ai_run_group_uuid: undefined });
    expect(world.contextRequests).toEqual([{ caller, conversation: { uuid: conversation } }]);

    const stored = world.conversationById(conversation)!;
    expect(stored).toMatchObject({
      last_inbound_at: new Date(VIRTUAL_NOW),
      last_inbound_message_id: message!._id,
      unread_count: 1,
      event_sequence: 4,
      updated_at: new Date(REAL_NOW),
      last_message: { uuid: message!._id, body: 'Hola, ¿tienen envío?', content_type: 'text', is_from_customer: true, created_at: new Date(VIRTUAL_NOW) },
    });
    const event = stored.outbox.at(-1)!;
    expect(event).toMatchObject({
      type: 'message.received',
      conversation_id: conversation,
      author: { type: 'customer', uuid: stored.contact_id, name: 'Tess Ter' },
      created_at: new Date(REAL_NOW),
      data: expect.objectContaining({ uuid: message!._id, direction: 'inbound', body: 'Hola, ¿tienen envío?' }),
    });
    expect(world.recorded).toEqual([{ collection: 'conversations', businessId: 'b1', documentId: conversation, entry: { ...event, sequence: 4 } }]);
    expect(world.published).toEqual([]);
  });

  it('cancels the schedule created with cancel_on_customer_reply before its event is recorded, and leaves an unflagged one pending', async () => {
    const flaggedConversation = tester();
    const flagged = addSchedule(world, 'b1', flaggedConversation, { cancel_on_customer_reply: true });
    const unflaggedConversation = tester();
    const unflagged = addSchedule(world, 'b1', unflaggedConversation);
    world.advance(60_000);

    const answer = await write(flaggedConversation);
    expect(answer.cancelled_schedules).toEqual([flagged]);
    expect(world.scheduleById(flagged)).toMatchObject({ status: 'cancelled', updated_at: world.now });
    expect(world.scheduleById(flagged)!.history.at(-1)).toMatchObject({ event: 'cancelled', reason: 'customer_reply', actor: SYSTEM_ACTOR });
    expect(world.recorded.map((event) => [event.collection, event.documentId, event.entry.type])).toEqual([
      ['scheduled_messages', flagged, 'scheduled_message.cancelled'],
      ['conversations', flaggedConversation, 'message.received'],
    ]);

    expect((await write(unflaggedConversation)).cancelled_schedules).toEqual([]);
    expect(world.scheduleById(unflagged)).toMatchObject({ status: 'pending' });
  });

  it('queues a reply of the assigned AI on the conversation command stream, answering its group', async () => {
    const conversation = tester({ ai_employee_id: 'ai-ana' });
    const answer = await runWithRequestContext({ requestId: 'req-7' }, () => write(conversation));
    expect(answer.ai_run_group_uuid).toEqual(expect.any(String));
    expect(world.published).toEqual([
      {
        key: conversation,
        command: expect.objectContaining({
          kind: 'action_group',
          source: 'run_ai',
          group_uuid: answer.ai_run_group_uuid,
          business_id: 'b1',
          token_uuid: 'token-1',
          request_id: 'req-7',
          conversation_uuid: conversation,
          created_at: REAL_NOW,
          in_reply_to_message_uuid: answer.message_uuid,
          actions: [{ type: 'run_ai' }],
        }),
      },
    ]);
  });

  it('queues no AI reply on a pending conversation', async () => {
    const conversation = tester({ ai_employee_id: 'ai-ana', inbox_status: 'pending' });
    const answer = await write(conversation);
    expect(answer.ai_run_group_uuid).toBeUndefined();
    expect(world.published).toEqual([]);
    expect(world.messages).toHaveLength(1);
  });

  it('records no event for a message the conversation had counted already', async () => {
    const conversation = tester();
    const ports = world.ports();
    const counted = { ...ports, conversations: { ...ports.conversations, applyInboundMessage: async () => null } };
    await write(conversation, 'again', counted);
    expect(world.recorded).toEqual([]);
  });

  it('answers NOT_A_TESTER_CONVERSATION for a real conversation, writing nothing', async () => {
    const real = addConversation(world, 'b1', { ai_employee_id: 'ai-ana' });
    addSchedule(world, 'b1', real, { cancel_on_customer_reply: true });
    const before = structuredClone(world.conversationById(real));
    await expect(write(real)).rejects.toMatchObject({ code: 'NOT_A_TESTER_CONVERSATION', message: 'Simulated customer messages go to tester conversations only.' });
    expect(world.conversationById(real)).toEqual(before);
    expect([world.messages, world.recorded, world.published]).toEqual([[], [], []]);
    expect(world.schedules[0]!.status).toBe('pending');
  });

  it("passes the conversation service's refusals through: another business's tester conversation is CONVERSATION_NOT_FOUND", async () => {
    const theirs = addConversation(world, 'b2', { is_tester: true });
    await expect(write(theirs)).rejects.toMatchObject({ code: 'CONVERSATION_NOT_FOUND' });
    world.refuseNextContext(new CatalogError('PHONE_NUMBER_AMBIGUOUS'));
    await expect(recordTesterInbound(scope, caller, { phone: '+52 55 1234 5678' }, 'hi', world.ports())).rejects.toMatchObject({ code: 'PHONE_NUMBER_AMBIGUOUS' });
    expect([world.messages, world.recorded, world.published]).toEqual([[], [], []]);
  });
});
