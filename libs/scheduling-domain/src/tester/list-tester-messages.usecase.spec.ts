import { businessScope } from '@cmsg/dal';
import { InMemorySchedulingWorld, type StoredMessage } from '../testing/in-memory-scheduling-ports';
import { addBusiness, addConversation } from '../testing/scheduling-builders';
import { listTesterMessages } from './list-tester-messages.usecase';

const scope = businessScope('b1');

describe('listTesterMessages', () => {
  let world: InMemorySchedulingWorld;
  let tester: string;
  const message = (conversationId: string, minute: number, fields: Partial<StoredMessage> = {}): StoredMessage => ({
    _id: `m-${conversationId.slice(-2)}-${minute}`,
    business_id: 'b1',
    conversation_id: conversationId,
    is_from_customer: false,
    body: `reply ${minute}`,
    content_type: 'text',
    status: 'simulated',
    author: { type: 'ai_employee', uuid: 'ai-1' },
    created_at: new Date(Date.UTC(2026, 2, 2, 12, minute)),
    ...fields,
  });

  beforeEach(() => {
    world = new InMemorySchedulingWorld();
    addBusiness(world, 'b1');
    addBusiness(world, 'b2');
    tester = addConversation(world, 'b1', { is_tester: true });
  });

  it('answers what was sent to the tester conversation, newest first, at most `limit`', async () => {
    const other = addConversation(world, 'b1', { is_tester: true });
    world.messages.push(
      message(tester, 1),
      message(tester, 3, { body: undefined, author: null, content_type: 'template' }),
      message(tester, 2, { is_from_customer: true, status: 'received' }),
      message(tester, 4),
      message(other, 5),
    );
    const answer = await listTesterMessages(scope, tester, 2, world.ports());
    expect(answer).toEqual({
      items: [
        { uuid: `m-${tester.slice(-2)}-4`, body: 'reply 4', content_type: 'text', status: 'simulated', author: { type: 'ai_employee', uuid: 'ai-1' }, created_at: '2026-03-02T12:04:00.000Z' },
        { uuid: `m-${tester.slice(-2)}-3`, body: '', content_type: 'template', status: 'simulated', author: undefined, created_at: '2026-03-02T12:03:00.000Z' },
      ],
    });
    expect((await listTesterMessages(scope, tester, 50, world.ports())).items.map((item) => item.body)).toEqual(['reply 4', '', 'reply 1']);
  });

  it("answers CONVERSATION_NOT_FOUND for an unknown conversation and for another business's tester conversation", async () => {
    const theirs = addConversation(world, 'b2', { is_tester: true });
    for (const id of ['00000000-0000-4000-8000-00000000ffff', theirs]) {
      await expect(listTesterMessages(scope, id, 50, world.ports())).rejects.toMatchObject({ code: 'CONVERSATION_NOT_FOUND' });
    }
  });

  it('answers NOT_A_TESTER_CONVERSATION for a real conversation', async () => {
    const real = addConversation(world, 'b1');
    await expect(listTesterMessages(scope, real, 50, world.ports())).rejects.toMatchObject({
      code: 'NOT_A_TESTER_CONVERSATION',
      message: 'Simulated messages exist on tester conversations only.',
    });
  });
});
