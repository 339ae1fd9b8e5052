import { randomUUID } from 'node:crypto';
import { minutesAgo, storedCollection } from '@cmsg/testing';
import { type ActionsBusiness, cloudApi, createActionsBusiness, disconnectStackDatabase, openConversation, phoneOf, waitForGroup } from './action-group-fixtures';

// Generous: the suite shares one machine with every other stack and test run.
jest.setTimeout(240_000);

const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

describe('action groups: acceptance, preflight and reads (SPEC 4.3 rules 1-2, CONTRACT 4)', () => {
  let business: ActionsBusiness;
  let other: ActionsBusiness;
  const conversations = { open: '', human: '', humanToAssign: '', aiOwned: '', media: '' };
  const twin = [randomUUID(), randomUUID()];

  beforeAll(async () => {
    business = await createActionsBusiness((seed, catalog) => {
      seed.ai_employees!.push({ uuid: twin[0]!, name: 'Twin', model: 'm' }, { uuid: twin[1]!, name: 'twin', model: 'm' });
      conversations.open = openConversation(seed);
      conversations.human = openConversation(seed);
      conversations.humanToAssign = openConversation(seed);
      conversations.aiOwned = openConversation(seed, { ai_employee: catalog.ai.ana });
    }, 1);
    other = await createActionsBusiness((seed, catalog) => {
      seed.vision_wallet_tokens = 0;
      conversations.media = openConversation(seed, {
        ai_employee: catalog.ai.ana,
        messages: [{ uuid: randomUUID(), is_from_customer: true, content_type: 'image', body: '', created_at: minutesAgo(3), media_transcription_pending: true }],
      });
    });
  });

  afterAll(() => disconnectStackDatabase());

  const groupsOf = (conversationUuid: string) => storedCollection('action_groups').countDocuments({ conversation_id: conversationUuid });

  it('accepts a group with 202 and the acknowledgement; GET follows it to its end in the CONTRACT 4 shape', async () => {
    const response = await business.api.post('/conversation/actions', {
      conversation: { uuid: conversations.open },
      actions: [{ type: 'assign_label', tags: [{ name: 'vip' }] }, { type: 'context_note', note: 'Accepted through the API' }],
    });
    expect(response.status).toBe(202);
    expect(response.body).toEqual({ conversation: { uuid: conversations.open }, status: 'processing', actions_accepted: 2, action_group: { uuid: expect.stringMatching(UUID_PATTERN) } });
    const uuid = response.body.action_group.uuid;
    await waitForGroup(uuid);
    const read = await business.api.get(`/action-groups/${uuid}`);
    expect(read.status).toBe(200);
    expect(read.body).toEqual({
      uuid,
      conversation: { uuid: conversations.open },
      status: 'succeeded',
      escalated: false,
      actions: [
        { index: 0, type: 'assign_label', status: 'succeeded', error: null, started_at: expect.any(String), finished_at: expect.any(String) },
        { index: 1, type: 'context_note', status: 'succeeded', error: null, started_at: expect.any(String), finished_at: expect.any(String) },
      ],
      created_at: expect.any(String),
      finished_at: expect.any(String),
    });
  });

  it('answers ACTION_GROUP_NOT_FOUND for an unknown group and for another business’s group', async () => {
    const unknown = await business.api.get(`/action-groups/${randomUUID()}`);
    expect([unknown.status, unknown.body.code]).toEqual([404, 'ACTION_GROUP_NOT_FOUND']);
    const mine = await business.api.post('/conversation/actions', { conversation: { uuid: conversations.open }, actions: [{ type: 'mark_pending' }] });
    const foreign = await other.api.get(`/action-groups/${mine.body.action_group.uuid}`);
    expect([foreign.status, foreign.body.code]).toEqual([404, 'ACTION_GROUP_NOT_FOUND']);
  });

  it('validates the body: no actions is INVALID_REQUEST, over the caps is BATCH_LIMIT_EXCEEDED with the cap', async () => {
    const empty = await business.api.post('/conversation/actions', { conversation: { uuid: conversations.open }, actions: [] });
    expect([empty.status, empty.body.code]).toEqual([400, 'INVALID_REQUEST']);
    const tooMany = await business.api.post('/conversation/actions', { conversation: { uuid: conversations.open }, actions: new Array(11).fill({ type: 'mark_pending' }) });
    expect([tooMany.status, tooMany.body.code]).toEqual([400, 'BATCH_LIMIT_EXCEEDED']);
    expect(tooMany.body.message).toContain('10');
    const tooMuchAi = await business.api.post('/conversation/actions', {
      conversation: { uuid: conversations.aiOwned },
      actions: [{ type: 'run_ai' }, { type: 'run_ai' }, { type: 'ai_assistance', ai_employee: { name: 'Ana' }, prompt: 'p' }, { type: 'assign_ai_employee', ai_employee: { name: 'Ana' }, run: true }],
    });
    expect([tooMuchAi.status, tooMuchAi.body.code]).toEqual([400, 'BATCH_LIMIT_EXCEEDED']);
    expect(tooMuchAi.body.message).toContain('3 AI-triggering');
  });

  it.each([
    ['CONVERSATION_NOT_FOUND', 404, () => ({ conversation: { uuid: randomUUID() }, actions: [{ type: 'mark_pending' }] }), null],
    ['AI_EMPLOYEE_NOT_FOUND', 404, () => ({ conversation: { uuid: conversations.open }, actions: [{ type: 'mark_pending' }, { type: 'run_ai', ai_employee: { name: 'Nobody' } }] }), 'actions[1] (run_ai): '],
    ['AMBIGUOUS_AI_EMPLOYEE', 409, () => ({ conversation: { uuid: conversations.open }, actions: [{ type: 'ai_assistance', ai_employee: { name: 'TWIN' }, prompt: 'p' }] }), 'actions[0] (ai_assistance): '],
    ['INVALID_ASSIGNEE_FOR_RUN_AI', 409, () => ({ conversation: { uuid: conversations.human }, actions: [{ type: 'context_note', note: 'n' }, { type: 'run_ai' }] }), 'actions[1] (run_ai): '],
    ['WALLET_BLOCKED', 402, () => ({ conversation: { uuid: conversations.open }, actions: [{ type: 'assign_ai_employee', ai_employee: { name: 'Broke' }, run: true }] }), 'actions[0] (assign_ai_employee): '],
  ])('rejects the whole group with %s (%i), naming the action, and runs nothing', async (code, status, body, prefix) => {
    const request = body();
    const before = await groupsOf(request.conversation.uuid);
    const response = await business.clients[0]!.post('/conversation/actions', request);
    expect([response.status, response.body.code]).toEqual([status, code]);
    if (prefix) expect(response.body.message).toMatch(new RegExp(`^${prefix.replace(/[[\]()]/g, '\\$&')}`));
    expect(await groupsOf(request.conversation.uuid)).toBe(before);
  });

  it('rejects with VISION_WALLET_BLOCKED (402) when media awaits transcription and the vision wallet is empty', async () => {
    const response = await other.api.post('/conversation/actions', { conversation: { uuid: conversations.media }, actions: [{ type: 'mark_pending' }, { type: 'run_ai' }] });
    expect([response.status, response.body.code]).toEqual([402, 'VISION_WALLET_BLOCKED']);
    expect(response.body.message).toMatch(/^actions\[1\] \(run_ai\): /);
    const withoutAi = await other.api.post('/conversation/actions', { conversation: { uuid: conversations.media }, actions: [{ type: 'mark_pending' }] });
    expect(withoutAi.status).toBe(202);
  });

  it('accepts [assign_ai_employee, run_ai] on a human-owned conversation (the assignment earlier in the group counts)', async () => {
    const response = await business.clients[0]!.post('/conversation/actions', {
      conversation: { uuid: conversations.humanToAssign },
      actions: [{ type: 'assign_ai_employee', ai_employee: { name: 'Ana' } }, { type: 'run_ai' }],
    });
    expect(response.status).toBe(202);
    const group = await waitForGroup(response.body.action_group.uuid);
    expect(group.actions.map((action) => action.status)).toEqual(['succeeded', 'succeeded']);
  });

  it('POST /conversation/run-ai answers 202 and the AI replies in the background', async () => {
    const since = (await cloudApi().requests()).reduce((max, record) => Math.max(max, record.seq), 0);
    const response = await business.api.post('/conversation/run-ai', { conversation: { uuid: conversations.aiOwned } });
    expect(response.status).toBe(202);
    expect(response.body).toEqual({ conversation: { uuid: conversations.aiOwned }, status: 'processing' });
    const [sent] = await cloudApi().waitForMessages(1, { to: phoneOf(business.seed, conversations.aiOwned), since }, 20_000);
    expect(JSON.stringify(sent!.body)).toContain('AI(gpt-ana): re: Hello, I need help');
    const run = await storedCollection('action_groups').findOne({ conversation_id: conversations.aiOwned, source: 'run_ai' });
    expect(run).toMatchObject({ actions: [{ type: 'run_ai' }] });
    expect((await waitForGroup(String(run!._id))).status).toBe('succeeded');
  });

  it('POST /conversation/run-ai runs the preflight too', async () => {
    const response = await business.api.post('/conversation/run-ai', { conversation: { uuid: conversations.human } });
    expect([response.status, response.body.code]).toEqual([409, 'INVALID_ASSIGNEE_FOR_RUN_AI']);
  });

  it('POST /conversation/ai-assistance answers 200 with the answer, stored as a note; nothing is sent', async () => {
    const since = (await cloudApi().requests()).reduce((max, record) => Math.max(max, record.seq), 0);
    const response = await business.api.post('/conversation/ai-assistance', {
      conversation: { uuid: conversations.open },
      ai_employee: { name: 'ana' },
      prompt: 'What does the customer need?',
    });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ answer: 'AI(gpt-ana): re: What does the customer need?', note: { uuid: expect.stringMatching(UUID_PATTERN) } });
    const note = await storedCollection('timeline_events').findOne({ _id: response.body.note.uuid });
    expect(note).toMatchObject({ conversation_id: conversations.open, kind: 'note', body: response.body.answer });
    expect(await cloudApi().requests({ to: phoneOf(business.seed, conversations.open), since })).toEqual([]);
    const broke = await business.api.post('/conversation/ai-assistance', { conversation: { uuid: conversations.open }, ai_employee: { name: 'Broke' }, prompt: 'p' });
    expect([broke.status, broke.body.code]).toEqual([402, 'WALLET_BLOCKED']);
    const invalid = await business.api.post('/conversation/ai-assistance', { conversation: { uuid: conversations.open }, ai_employee: { name: 'Ana' }, prompt: '' });
    expect([invalid.status, invalid.body.code]).toEqual([400, 'INVALID_REQUEST']);
  });
});
