import { randomUUID } from 'node:crypto';
import { type TestBusiness, contactSeed, createTestBusiness, minutesAgo } from '@cmsg/testing';
import { KafkaTopicProbe } from '@cmsg/testing/kafka';
import { storedConversation } from './conversation-actions.fixtures';

describe('AI assignment endpoints: /conversation/ai-employee, /unassign-ai, /human (CONTRACT 5)', () => {
  let business: TestBusiness;
  let probe: KafkaTopicProbe;
  const ai = { max: randomUUID(), eva: randomUUID(), twinA: randomUUID(), twinB: randomUUID() };
  const foreignAi = randomUUID();
  const conversations = {
    human: randomUUID(),
    withMax: randomUUID(),
    toUnassign: randomUUID(),
    noAi: randomUUID(),
    handoff: randomUUID(),
    toRun: randomUUID(),
    errors: randomUUID(),
  };

  beforeAll(async () => {
    await createTestBusiness((seed) => {
      seed.ai_employees = [{ uuid: foreignAi, name: 'Foreign AI', model: 'gpt-test', wallet_tokens: 100 }];
    });
    business = await createTestBusiness((seed) => {
      seed.ai_employees = [
        { uuid: ai.max, name: 'Max', model: 'gpt-test', wallet_tokens: 1000 },
        { uuid: ai.eva, name: 'Eva', model: 'gpt-test', wallet_tokens: 1000 },
        { uuid: ai.twinA, name: 'Twin', model: 'gpt-test', wallet_tokens: 10 },
        { uuid: ai.twinB, name: 'twin', model: 'gpt-test', wallet_tokens: 10 },
      ];
      contactSeed(seed, { conversation: { uuid: conversations.human } });
      contactSeed(seed, { conversation: { uuid: conversations.withMax, ai_employee: ai.max } });
      contactSeed(seed, { conversation: { uuid: conversations.toUnassign, ai_employee: ai.max, inbox_status: 'resolved' } });
      contactSeed(seed, { conversation: { uuid: conversations.noAi, inbox_status: 'resolved' } });
      contactSeed(seed, { conversation: { uuid: conversations.handoff, ai_employee: ai.eva, inbox_status: 'resolved' } });
      contactSeed(seed, {
        conversation: { uuid: conversations.toRun, messages: [{ uuid: randomUUID(), is_from_customer: true, body: 'Hi, is it in stock?', created_at: minutesAgo(5) }] },
      });
      contactSeed(seed, { conversation: { uuid: conversations.errors, ai_employee: ai.max } });
    });
    probe = KafkaTopicProbe.forStackTopic('conversation-events');
    await probe.start();
  });

  afterAll(() => probe.stop());

  const assign = (conversation: string, body: Record<string, unknown>) => business.api.post('/conversation/ai-employee', { conversation: { uuid: conversation }, ...body });

  it('assigns an AI employee by uuid, and another by name (case-insensitive)', async () => {
    const first = await assign(conversations.human, { ai_employee: { uuid: ai.max } });
    expect(first.status).toBe(200);
    expect(first.body).toEqual({ conversation: { uuid: conversations.human }, ai_employee: { uuid: ai.max, name: 'Max' }, ai_run: null });
    const second = await assign(conversations.human, { ai_employee: { name: 'eva' } });
    expect(second.body.ai_employee).toEqual({ uuid: ai.eva, name: 'Eva' });
    expect((await storedConversation(conversations.human))?.ai_employee_id).toBe(ai.eva);
  });

  it('answers 409 AI_EMPLOYEE_ALREADY_ASSIGNED for the employee already assigned', async () => {
    const response = await assign(conversations.withMax, { ai_employee: { name: 'MAX' } });
    expect([response.status, response.body.code]).toEqual([409, 'AI_EMPLOYEE_ALREADY_ASSIGNED']);
  });

  it.each<[string, number, string, Record<string, unknown>]>([
    ['AI_EMPLOYEE_NOT_FOUND', 404, 'an unknown uuid', { ai_employee: { uuid: randomUUID() } }],
    ['AI_EMPLOYEE_NOT_FOUND', 404, 'an unknown name', { ai_employee: { name: 'Nobody' } }],
    ['AI_EMPLOYEE_NOT_FOUND', 404, 'a uuid of another business', { ai_employee: { uuid: foreignAi } }],
    ['AI_EMPLOYEE_NOT_FOUND', 404, 'a name of another business', { ai_employee: { name: 'Foreign AI' } }],
    ['AMBIGUOUS_AI_EMPLOYEE', 409, 'a name shared by two employees', { ai_employee: { name: 'TWIN' } }],
    ['SCHEDULED_MESSAGE_ACTION_INVALID', 400, 'an invalid scheduled_message_action with no schedule', { ai_employee: { uuid: ai.eva }, scheduled_message_action: 'keep' }],
    ['INVALID_REQUEST', 400, 'a missing ai_employee', {}],
  ])('answers %s (%i) for %s, changing nothing', async (code, status, _case, body) => {
    const response = await assign(conversations.errors, body);
    expect(response.status).toBe(status);
    expect(response.body).toEqual({ code, message: expect.any(String) });
    expect((await storedConversation(conversations.errors))?.ai_employee_id).toBe(ai.max);
  });

  it('unassigns the AI employee without touching the inbox status', async () => {
    const response = await business.api.post('/conversation/unassign-ai', { conversation: { uuid: conversations.toUnassign } });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ conversation: { uuid: conversations.toUnassign }, ai_employee: null, inbox_status: 'resolved' });
    expect(await storedConversation(conversations.toUnassign)).toMatchObject({ ai_employee_id: null, inbox_status: 'resolved' });
  });

  it('answers 200 with no change when no AI employee is assigned', async () => {
    const response = await business.api.post('/conversation/unassign-ai', { conversation: { uuid: conversations.noAi }, scheduled_message_action: null });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ conversation: { uuid: conversations.noAi }, ai_employee: null, inbox_status: 'resolved' });
  });

  it('hands a conversation to humans: AI removed, pending with reason human_handoff, broadcast', async () => {
    const response = await business.api.post('/conversation/human', { conversation: { uuid: conversations.handoff } });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ conversation: { uuid: conversations.handoff }, ai_employee: null, inbox_status: 'pending' });
    expect(await storedConversation(conversations.handoff)).toMatchObject({ ai_employee_id: null, inbox_status: 'pending', pending_reason: 'human_handoff' });
    // Two changes, two broadcasts: the owner, then the inbox status.
    const owner = await probe.waitFor((message) => message.key === conversations.handoff && message.value.type === 'conversation.assignment_changed');
    expect(owner.value.data).toMatchObject({ to: null });
    const status = await probe.waitFor((message) => message.key === conversations.handoff && message.value.type === 'conversation.inbox_status_changed');
    expect(status.value.data).toMatchObject({ from: 'resolved', to: 'pending', pending_reason: 'human_handoff' });
  });

  // A handoff of a conversation already human-owned and pending changes nothing:
  // libs/conversations-domain/src/ai-assignment/unassign-ai.usecase.spec.ts.

  it('answers the reference errors on every endpoint', async () => {
    for (const [path, body] of [
      ['/conversation/ai-employee', { ai_employee: { uuid: ai.max } }],
      ['/conversation/unassign-ai', {}],
      ['/conversation/human', {}],
    ] as const) {
      const response = await business.api.post(path, { conversation: { uuid: randomUUID() }, ...body });
      expect({ path, status: response.status, code: response.body.code }).toEqual({ path, status: 404, code: 'CONVERSATION_NOT_FOUND' });
    }
  });

  // Depends on the actions-runner's RunAi (another team's service): `run: true` hands the run to it.
  it('with run true, assigns and starts the AI employee (actions-runner RunAi)', async () => {
    const response = await assign(conversations.toRun, { ai_employee: { uuid: ai.max }, run: true });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      conversation: { uuid: conversations.toRun },
      ai_employee: { uuid: ai.max, name: 'Max' },
      ai_run: { status: 'processing', error: null },
    });
    expect((await storedConversation(conversations.toRun))?.ai_employee_id).toBe(ai.max);
  });
});
