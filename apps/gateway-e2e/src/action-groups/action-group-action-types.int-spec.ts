import { randomUUID } from 'node:crypto';
import { minutesAgo, storedCollection } from '@cmsg/testing';
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
} from './action-group-fixtures';

// Generous: the suite shares one machine with every other stack and test run.
jest.setTimeout(240_000);

/** Each action type's success, no-op and failure paths, through HTTP and the real services (SPEC 4.3, CONTRACT 4). */
describe('action groups: every action type', () => {
  let business: ActionsBusiness;
  const faultyModel = `gpt-faulty-${randomUUID().slice(0, 8)}`;
  const conversations = { main: '', failures: '', closed: '', aiMedia: '', ai: '', sendFails: '' };

  beforeAll(async () => {
    business = await createActionsBusiness((seed, catalog) => {
      seed.ai_employees!.push({ uuid: randomUUID(), name: 'Faulty', model: faultyModel, wallet_tokens: 1000 });
      conversations.main = openConversation(seed);
      conversations.failures = openConversation(seed);
      conversations.closed = closedConversation(seed, { ai_employee: catalog.ai.ana });
      conversations.aiMedia = openConversation(seed, {
        ai_employee: catalog.ai.ana,
        messages: [{ uuid: randomUUID(), is_from_customer: true, content_type: 'audio', body: '', created_at: minutesAgo(2), media_transcription_pending: true }],
      });
      conversations.ai = openConversation(seed, { ai_employee: catalog.ai.ana });
      conversations.sendFails = openConversation(seed);
    }, 2);
    await aiServer().addRules({ match: { model: faultyModel }, status: 500, error: { message: 'model overloaded' } });
    await cloudApi().addRules({ match: { to: phoneOf(business.seed, conversations.sendFails) }, status: 500, error: { message: 'Service temporarily unavailable', code: 2 } });
  });

  afterAll(() => disconnectStackDatabase());

  const group = (conversation: string, actions: unknown[], flags: Record<string, boolean> = {}) =>
    runGroup(business.api, { conversation: { uuid: conversation }, actions, stop_on_error: false, escalate_on_error: false, ...flags });

  it('runs every non-AI action type successfully, in order, with the state to show for it', async () => {
    const since = Math.max(0, ...(await cloudApi().requests()).map((record) => record.seq));
    const result = await group(conversations.main, [
      { type: 'send_message', text: 'Hello from the action group' },
      { type: 'send_message', quick_reply: { name: 'welcome' } },
      { type: 'send_message', template: { name: 'order_update', language: 'es_MX', variables: [{ index: 1, value: 'Ana' }] } },
      { type: 'send_quick_reply_or_template', quick_reply: { uuid: business.catalog.quickReplies.welcome }, template: { uuid: business.catalog.templates.approved, variables: [{ index: 1, value: 'Ana' }] } },
      { type: 'assign_label', tags: [{ name: 'vip' }, { uuid: business.catalog.tags.lead }] },
      { type: 'remove_label', tags: [{ name: 'Lead' }] },
      { type: 'assign_mailbox', mailbox: { name: 'South' } },
      { type: 'context_note', note: 'Handled by the action group' },
      { type: 'mark_resolved' },
      { type: 'mark_pending' },
    ]);
    expect(resultsOf(result)).toEqual([
      ['send_message', 'succeeded', null],
      ['send_message', 'succeeded', null],
      ['send_message', 'succeeded', null],
      ['send_quick_reply_or_template', 'succeeded', null],
      ['assign_label', 'succeeded', null],
      ['remove_label', 'succeeded', null],
      ['assign_mailbox', 'succeeded', null],
      ['context_note', 'succeeded', null],
      ['mark_resolved', 'succeeded', null],
      ['mark_pending', 'succeeded', null],
    ]);
    expect(result.status).toBe('succeeded');
    const conversation = await conversationDocument(conversations.main);
    expect(conversation).toMatchObject({ tag_ids: [business.catalog.tags.vip], mailbox_id: business.catalog.mailboxes.salesSouth, inbox_status: 'pending' });
    // text + 2 quick-reply messages + template + 2 quick-reply messages (window open)
    const sent = (await cloudApi().requests({ kind: 'message', to: phoneOf(business.seed, conversations.main), since })).filter((record) => record.status === 200);
    expect(sent.map((record) => (record.body as { type: string }).type)).toEqual(['text', 'text', 'text', 'template', 'text', 'text']);
    expect(await storedCollection('timeline_events').countDocuments({ conversation_id: conversations.main, kind: 'note', body: 'Handled by the action group' })).toBe(1);
  });

  it('counts a desired state that already holds as a no-op (success)', async () => {
    const result = await group(conversations.main, [
      { type: 'assign_label', tags: [{ name: 'VIP' }] },
      { type: 'remove_label', tags: [{ name: 'Lead' }] },
      { type: 'assign_mailbox', mailbox: { uuid: business.catalog.mailboxes.salesSouth } },
      { type: 'assign_ai_employee', ai_employee: { name: 'Ana' } },
      { type: 'assign_ai_employee', ai_employee: { uuid: business.catalog.ai.ana } },
      { type: 'unassign_ai' },
      { type: 'unassign_ai' },
      { type: 'assign_mailbox', category: { name: 'Sales' } },
      { type: 'assign_mailbox', category: { name: 'sales' } },
    ]);
    expect(resultsOf(result)).toEqual([
      ['assign_label', 'noop', null],
      ['remove_label', 'noop', null],
      ['assign_mailbox', 'noop', null],
      ['assign_ai_employee', 'succeeded', null],
      ['assign_ai_employee', 'noop', null],
      ['unassign_ai', 'succeeded', null],
      ['unassign_ai', 'noop', null],
      ['assign_mailbox', 'succeeded', null],
      ['assign_mailbox', 'noop', null],
    ]);
    expect(result.status).toBe('succeeded');
    expect(await conversationDocument(conversations.main)).toMatchObject({ ai_employee_id: null, mailbox_id: business.catalog.mailboxes.salesNorth });
  });

  it('records the client-input failure of each action type with its code', async () => {
    const result = await group(conversations.failures, [
      { type: 'assign_label', tags: [{ name: 'vip' }, { name: 'No such tag' }] },
      { type: 'remove_label', tags: [{ uuid: business.catalog.tags.system }] },
      { type: 'assign_mailbox', category: { uuid: business.catalog.categories.empty } },
      { type: 'assign_mailbox', mailbox: { name: 'Nowhere' } },
      { type: 'send_message', template: { uuid: business.catalog.templates.pending } },
      { type: 'send_message', template: { uuid: business.catalog.templates.fake } },
      { type: 'send_message', quick_reply: { name: 'No such reply' } },
      { type: 'send_message', file_uuid: randomUUID(), text: 'caption' },
      { type: 'assign_ai_employee', ai_employee: { name: 'Nobody' } },
      { type: 'context_note', note: 'still runs' },
    ]);
    expect(resultsOf(result)).toEqual([
      ['assign_label', 'failed', 'TAG_NOT_FOUND'],
      ['remove_label', 'failed', 'CANNOT_REMOVE_DEFAULT_TAG'],
      ['assign_mailbox', 'failed', 'NO_MAILBOXES_IN_CATEGORY'],
      ['assign_mailbox', 'failed', 'MAILBOX_NOT_FOUND'],
      ['send_message', 'failed', 'TEMPLATE_NOT_APPROVED'],
      ['send_message', 'failed', 'TEMPLATE_FAKE_REQUIRES_TESTER_CONVERSATION'],
      ['send_message', 'failed', 'QUICK_REPLY_NOT_FOUND'],
      ['send_message', 'failed', 'FILE_NOT_FOUND'],
      ['assign_ai_employee', 'failed', 'AI_EMPLOYEE_NOT_FOUND'],
      ['context_note', 'succeeded', null],
    ]);
    expect(result.status).toBe('failed');
    expect(result.escalated).toBe(false);
    expect(result.actions[0]!.error!.message).toContain('No such tag');
  });

  it('fails WINDOW_CLOSED for free-form sends and AI runs on a closed window; templates and the deprecated action still work', async () => {
    const result = await group(conversations.closed, [
      { type: 'send_message', text: 'Too late' },
      { type: 'send_message', quick_reply: { name: 'Welcome' } },
      { type: 'run_ai' },
      { type: 'send_quick_reply_or_template', quick_reply: { name: 'Welcome' }, template: { name: 'order_update', language: 'es_MX', variables: [{ index: 1, value: 'Ana' }] } },
      { type: 'send_message', template: { uuid: business.catalog.templates.approved, variables: [{ index: 1, value: 'Ana' }] } },
      { type: 'context_note', note: 'closed window' },
    ]);
    expect(resultsOf(result)).toEqual([
      ['send_message', 'failed', 'WINDOW_CLOSED'],
      ['send_message', 'failed', 'WINDOW_CLOSED'],
      ['run_ai', 'failed', 'WINDOW_CLOSED'],
      ['send_quick_reply_or_template', 'succeeded', null],
      ['send_message', 'succeeded', null],
      ['context_note', 'succeeded', null],
    ]);
  });

  it('runs the AI actions: run_ai replies, ai_assistance stores a note, a failing provider is AI_EXECUTION_FAILED', async () => {
    const since = Math.max(0, ...(await cloudApi().requests()).map((record) => record.seq));
    const result = await group(conversations.ai, [
      { type: 'run_ai' },
      { type: 'ai_assistance', ai_employee: { name: 'Ana' }, prompt: 'Summarize the conversation' },
      { type: 'assign_ai_employee', ai_employee: { name: 'Faulty' }, run: true },
      { type: 'assign_ai_employee', ai_employee: { name: 'Ana' } },
    ]);
    expect(resultsOf(result)).toEqual([
      ['run_ai', 'succeeded', null],
      ['ai_assistance', 'succeeded', null],
      ['assign_ai_employee', 'failed', 'AI_EXECUTION_FAILED'],
      ['assign_ai_employee', 'succeeded', null],
    ]);
    expect(result.actions[2]!.error!.message).toContain('model overloaded');
    const replies = (await cloudApi().requests({ kind: 'message', to: phoneOf(business.seed, conversations.ai), since })).filter((record) => record.status === 200);
    expect(replies).toHaveLength(1);
    expect(JSON.stringify(replies[0]!.body)).toContain('AI(gpt-ana): re: Hello, I need help');
    expect(await storedCollection('timeline_events').countDocuments({ conversation_id: conversations.ai, kind: 'note', body: 'AI(gpt-ana): re: Summarize the conversation' })).toBe(1);
    expect(await conversationDocument(conversations.ai)).toMatchObject({ ai_employee_id: business.catalog.ai.ana });
  });

  it('fails mark_resolved with TRANSCRIPTION_REQUIRED_TO_RESOLVE and a failing send with SEND_FAILED', async () => {
    const media = await group(conversations.aiMedia, [{ type: 'mark_resolved' }]);
    expect(resultsOf(media)).toEqual([['mark_resolved', 'failed', 'TRANSCRIPTION_REQUIRED_TO_RESOLVE']]);
    const send = await group(conversations.sendFails, [{ type: 'send_message', text: 'Will not arrive' }]);
    expect(resultsOf(send)).toEqual([['send_message', 'failed', 'SEND_FAILED']]);
  });
});
