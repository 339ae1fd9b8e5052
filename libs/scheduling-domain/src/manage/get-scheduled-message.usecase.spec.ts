import { businessScope } from '@cmsg/dal';
import { InMemorySchedulingWorld } from '../testing/in-memory-scheduling-ports';
import { addBusiness, addConversation, addSchedule } from '../testing/scheduling-builders';
import { getScheduledMessage } from './get-scheduled-message.usecase';

describe('getScheduledMessage', () => {
  let world: InMemorySchedulingWorld;
  let conversation: string;

  beforeEach(() => {
    world = new InMemorySchedulingWorld();
    addBusiness(world, 'b1');
    addBusiness(world, 'b2');
    conversation = addConversation(world, 'b1');
  });

  it('answers the stored schedule as the scheduler gRPC view', async () => {
    const id = addSchedule(world, 'b1', conversation, { cancel_on_customer_reply: true });
    const view = await getScheduledMessage(businessScope('b1'), id, world.ports());
    expect(view).toMatchObject({
      uuid: id,
      conversation_uuid: conversation,
      executor_kind: 'human_user',
      status: 'pending',
      schedule_at: '2026-03-02T13:00:00.000Z',
      schedule_local: { date: '2026-03-02', time: '13:00' },
      time_zone: 'UTC',
      cancel_on_customer_reply: true,
      template_uuid: 'template-1',
      message_kind: 'message',
      author: { type: 'api_token', uuid: 'token-1' },
      error: undefined,
      fired_at: undefined,
      created_at: '2026-03-02T12:00:00.000Z',
      history: [expect.objectContaining({ event: 'created', status: 'pending', at: '2026-03-02T12:00:00.000Z' })],
    });
  });

  it("answers SCHEDULED_MESSAGE_NOT_FOUND for an unknown id and for another business's schedule", async () => {
    const theirs = addSchedule(world, 'b2', addConversation(world, 'b2'));
    for (const id of ['00000000-0000-4000-8000-00000000ffff', theirs]) {
      await expect(getScheduledMessage(businessScope('b1'), id, world.ports())).rejects.toMatchObject({
        code: 'SCHEDULED_MESSAGE_NOT_FOUND',
        message: `No scheduled message ${id} in this business.`,
      });
    }
    await expect(getScheduledMessage(businessScope('b2'), theirs, world.ports())).resolves.toMatchObject({ uuid: theirs });
  });
});
