import { randomUUID } from 'node:crypto';
import {
  type ActionsBusiness,
  aiServer,
  closedConversation,
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
  const conversations = { stopEscalate: '', continueEscalate: '', noEscalate: '', clientErrors: '', closed: '', noop: '', lostAi: '' };

  beforeAll(async () => {
    business = await createActionsBusiness((seed, catalog) => {
      const slow = randomUUID();
      seed.ai_employees!.push({ uuid: slow, name: 'Slow', model: slowModel, wallet_tokens: 1000 });
      conversations.stopEscalate = openConversation(seed);
      conversations.continueEscalate = openConversation(seed);
      conversations.noEscalate = openConversation(seed);
      conversations.clientErrors = openConversation(seed);
      conversations.closed = closedConversation(seed);
      conversations.noop = openConversation(seed, { tags: [catalog.tags.vip] });
      conversations.lostAi = openConversation(seed, { ai_employee: slow });
    }, 1);
    const failing = ['stopEscalate', 'continueEscalate', 'noEscalate'] as const;
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

  it('stop_on_error false: every action runs; two escalating failures escalate once', async () => {
    const group = await runGroup(business.api, {
      conversation: { uuid: conversations.continueEscalate },
      stop_on_error: false,
      actions: [{ type: 'send_message', text: 'fails' }, { type: 'assign_label', tags: [{ name: 'VIP' }] }, { type: 'send_message', text: 'fails again' }],
    });
    expect(resultsOf(group)).toEqual([
      ['send_message', 'failed', 'SEND_FAILED'],
      ['assign_label', 'succeeded', null],
      ['send_message', 'failed', 'SEND_FAILED'],
    ]);
    expect(group.escalated).toBe(true);
    expect(await conversationDocument(conversations.continueEscalate)).toMatchObject({ inbox_status: 'pending', pending_reason: 'action_set_failed', tag_ids: [business.catalog.tags.vip] });
  });

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

  it('client-input and window errors never escalate, even with escalate_on_error true', async () => {
    const clientErrors = await runGroup(business.api, {
      conversation: { uuid: conversations.clientErrors },
      stop_on_error: false,
      actions: [
        { type: 'assign_label', tags: [{ name: 'Missing' }] },
        { type: 'assign_mailbox', mailbox: { name: 'Missing' } },
        { type: 'send_message', template: { uuid: business.catalog.templates.pending } },
      ],
    });
    expect(resultsOf(clientErrors).map(([, status, code]) => [status, code])).toEqual([
      ['failed', 'TAG_NOT_FOUND'],
      ['failed', 'MAILBOX_NOT_FOUND'],
      ['failed', 'TEMPLATE_NOT_APPROVED'],
    ]);
    const closed = await runGroup(business.api, { conversation: { uuid: conversations.closed }, actions: [{ type: 'send_message', text: 'late' }] });
    expect(resultsOf(closed)).toEqual([['send_message', 'failed', 'WINDOW_CLOSED']]);
    expect([clientErrors.escalated, closed.escalated]).toEqual([false, false]);
    expect(await inboxStatusOf(conversations.clientErrors)).toBe('resolved');
    expect(await inboxStatusOf(conversations.closed)).toBe('resolved');
  });

  it('a no-op counts as success and does not stop the group', async () => {
    const group = await runGroup(business.api, {
      conversation: { uuid: conversations.noop },
      actions: [{ type: 'assign_label', tags: [{ name: 'VIP' }] }, { type: 'context_note', note: 'after a no-op' }],
    });
    expect(resultsOf(group)).toEqual([
      ['assign_label', 'noop', null],
      ['context_note', 'succeeded', null],
    ]);
    expect(group.status).toBe('succeeded');
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
