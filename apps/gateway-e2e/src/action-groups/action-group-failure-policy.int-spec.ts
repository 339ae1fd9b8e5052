import { randomUUID } from 'node:crypto';
import {
  type ActionsBusiness,
  aiServer,
  cloudApi,
  conversationDocument,
  createActionsBusiness,
  disconnectStackDatabase,
  openConversation,
  phoneOf,
  resultsOf,
  runGroup,
  waitForGroup,
} from './action-group-fixtures';

// Generous: the suite shares one machine with every other stack and test run.
jest.setTimeout(240_000);

/** stop_on_error, escalate_on_error and which codes escalate (SPEC 3.1, 4.3 rules 5-6). */
describe('action groups: stop_on_error and escalation', () => {
  let business: ActionsBusiness;
  const slowModel = `gpt-slow-${randomUUID().slice(0, 8)}`;
  const conversations = { stopEscalate: '', noEscalate: '', lostAi: '' };

  beforeAll(async () => {
    business = await createActionsBusiness((seed) => {
      const slow = randomUUID();
      seed.ai_employees!.push({ uuid: slow, name: 'Slow', model: slowModel, wallet_tokens: 1000 });
      conversations.stopEscalate = openConversation(seed);
      conversations.noEscalate = openConversation(seed);
      conversations.lostAi = openConversation(seed, { ai_employee: slow });
    }, 1);
    const failing = ['stopEscalate', 'noEscalate'] as const;
    await cloudApi().addRules(...failing.map((name) => ({ match: { to: phoneOf(business.seed, conversations[name]) }, status: 500, error: { message: 'Service temporarily unavailable', code: 2 } })));
    await aiServer().addRules({ match: { model: slowModel }, delay_ms: 2000, times: 1 });
  });

  afterAll(() => disconnectStackDatabase());

  const inboxStatusOf = async (conversation: string) => {
    const response = await business.api.post('/conversation/status', { conversation: { uuid: conversation } });
    expect(response.status).toBe(200);
    return response.body.inbox_status as string;
  };

  it('stop_on_error true: the first failure skips the rest; SEND_FAILED escalates to pending (action_set_failed)', async () => {
    const group = await runGroup(business.api, {
      conversation: { uuid: conversations.stopEscalate },
      actions: [{ type: 'send_message', text: 'fails' }, { type: 'assign_label', tags: [{ name: 'VIP' }] }, { type: 'context_note', note: 'never' }],
    });
    expect(resultsOf(group)).toEqual([
      ['send_message', 'failed', 'SEND_FAILED'],
      ['assign_label', 'skipped', null],
      ['context_note', 'skipped', null],
    ]);
    expect([group.status, group.escalated]).toEqual(['failed', true]);
    expect(await inboxStatusOf(conversations.stopEscalate)).toBe('pending');
    expect(await conversationDocument(conversations.stopEscalate)).toMatchObject({ pending_reason: 'action_set_failed', tag_ids: [] });
  });

  // stop_on_error false, the codes that never escalate and no-ops counted as success:
  // libs/actions-domain/src/action-group/execute-action-group.usecase.spec.ts.

  it('escalate_on_error false: the failure is only reported; the conversation is untouched', async () => {
    const group = await runGroup(business.api, {
      conversation: { uuid: conversations.noEscalate },
      escalate_on_error: false,
      actions: [{ type: 'send_message', text: 'fails' }],
    });
    expect(resultsOf(group)).toEqual([['send_message', 'failed', 'SEND_FAILED']]);
    expect(group.escalated).toBe(false);
    expect(await inboxStatusOf(conversations.noEscalate)).toBe('resolved');
  });

  it('NO_AI_EMPLOYEE_ASSIGNED at execution (the AI left since the preflight) escalates', async () => {
    const first = await business.clients[0]!.post('/conversation/actions', {
      conversation: { uuid: conversations.lostAi },
      actions: [{ type: 'run_ai' }, { type: 'unassign_ai' }],
    });
    const second = await business.clients[0]!.post('/conversation/actions', { conversation: { uuid: conversations.lostAi }, actions: [{ type: 'run_ai' }] });
    expect([first.status, second.status]).toEqual([202, 202]);
    expect(resultsOf(await waitForGroup(first.body.action_group.uuid))).toEqual([
      ['run_ai', 'succeeded', null],
      ['unassign_ai', 'succeeded', null],
    ]);
    const lost = await waitForGroup(second.body.action_group.uuid);
    expect(resultsOf(lost)).toEqual([['run_ai', 'failed', 'NO_AI_EMPLOYEE_ASSIGNED']]);
    expect(lost.escalated).toBe(true);
    expect(await inboxStatusOf(conversations.lostAi)).toBe('pending');
  });
});
