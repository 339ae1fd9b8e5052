import { CUSTOMER_MESSAGE_RECEIVED, SYSTEM_ACTOR } from '@cmsg/conversation-commands';
import { InMemorySchedulingWorld } from '../testing/in-memory-scheduling-ports';
import { addBusiness, addConversation, addSchedule } from '../testing/scheduling-builders';
import { onConversationEvent } from './customer-reply-events';

describe('onConversationEvent (cancel_on_customer_reply)', () => {
  let world: InMemorySchedulingWorld;
  let conversation: string;
  const customerWrote = (businessId: string, conversationId: string, recordedAt: Date, type: string = CUSTOMER_MESSAGE_RECEIVED) => {
    const ports = world.ports();
    const event = {
      id: `event-${recordedAt.getTime()}`,
      type,
      created_at: recordedAt.toISOString(),
      data: { business_id: businessId, conversation_uuid: conversationId, message_uuid: 'm-1', content_type: 'text', sent_at: recordedAt.toISOString() },
    };
    return onConversationEvent(event, ports.schedules, ports.events, ports.clock);
  };

  beforeEach(() => {
    world = new InMemorySchedulingWorld();
    addBusiness(world, 'b1');
    addBusiness(world, 'b2');
    conversation = addConversation(world, 'b1');
  });

  it('cancels the flagged schedule created before the message (reason customer_reply), once however often the event comes', async () => {
    const flagged = addSchedule(world, 'b1', conversation, { cancel_on_customer_reply: true });
    const messageAt = new Date(world.now.getTime() + 1000);
    world.advance(5000);
    expect(await customerWrote('b1', conversation, messageAt)).toEqual([flagged]);
    expect(world.scheduleById(flagged)).toMatchObject({ status: 'cancelled', updated_at: world.now });
    expect(world.scheduleById(flagged)!.history.at(-1)).toMatchObject({ event: 'cancelled', reason: 'customer_reply', actor: SYSTEM_ACTOR });
    expect(await customerWrote('b1', conversation, messageAt)).toEqual([]);
    expect(world.recorded.map((event) => [event.documentId, event.entry.type])).toEqual([[flagged, 'scheduled_message.cancelled']]);
  });

  it('leaves pending an unflagged schedule, one created after the message, and the schedules of another business', async () => {
    const unflagged = addSchedule(world, 'b1', conversation);
    const otherConversation = addConversation(world, 'b1');
    const later = addSchedule(world, 'b1', otherConversation, { cancel_on_customer_reply: true });
    const theirConversation = addConversation(world, 'b2');
    const theirs = addSchedule(world, 'b2', theirConversation, { cancel_on_customer_reply: true });
    const before = new Date(world.now.getTime() - 1000);

    expect(await customerWrote('b1', conversation, world.now)).toEqual([]);
    expect(await customerWrote('b1', otherConversation, before)).toEqual([]);
    expect(await customerWrote('b1', theirConversation, world.now)).toEqual([]);
    expect([unflagged, later, theirs].map((id) => world.scheduleById(id)!.status)).toEqual(['pending', 'pending', 'pending']);
  });

  it('ignores the other event types', async () => {
    const flagged = addSchedule(world, 'b1', conversation, { cancel_on_customer_reply: true });
    expect(await customerWrote('b1', conversation, world.now, 'conversation.assigned')).toEqual([]);
    expect(world.scheduleById(flagged)!.status).toBe('pending');
  });
});
