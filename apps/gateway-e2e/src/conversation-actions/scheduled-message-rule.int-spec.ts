import { randomUUID } from 'node:crypto';
import { type TestBusiness, contactSeed, createTestBusiness, storedCollection } from '@cmsg/testing';
import { pendingScheduleOf, seedPendingSchedule, storedConversation, storedSchedule } from './conversation-actions.fixtures';

/** CONTRACT 3, last bullet: owner changes while a scheduled message is pending. */
describe('owner changes with a pending scheduled message', () => {
  let business: TestBusiness;
  const ai = { max: randomUUID(), eva: randomUUID() };
  const templates = { fallback: randomUUID(), channelDefault: randomUUID() };
  const conversationUuids = new Map<string, string>();

  /** Each test has its own conversation, seeded below by name. */
  function conversationFor(name: string): string {
    const uuid = conversationUuids.get(name);
    if (!uuid) throw new Error(`no conversation ${name}`);
    return uuid;
  }

  beforeAll(async () => {
    business = await createTestBusiness((seed) => {
      const main = seed.channels![0]!;
      main.default_scheduled_template = 'follow_up';
      seed.channels!.push({ public_key: `${main.public_key}-bare`, name: 'No default template', phone_number_id: `${main.phone_number_id}-bare` });
      seed.templates = [
        { uuid: templates.fallback, name: 'quote_reminder', language: 'es', status: 'approved', category: 'utility', body: 'Hola {{1}}', channel: main.public_key },
        { uuid: templates.channelDefault, name: 'follow_up', language: 'es', status: 'approved', category: 'utility', body: 'Seguimos {{1}}', channel: main.public_key },
      ];
      seed.ai_employees = [
        { uuid: ai.max, name: 'Max', model: 'gpt-test', wallet_tokens: 100 },
        { uuid: ai.eva, name: 'Eva', model: 'gpt-test', wallet_tokens: 100 },
      ];
      const add = (name: string, owner: string | null, channel = main.public_key) => {
        const uuid = randomUUID();
        conversationUuids.set(name, uuid);
        contactSeed(seed, { channel, conversation: { uuid, ai_employee: owner, inbox_status: 'resolved' } });
      };
      for (const name of ['required', 'cancel', 'reassign-ai', 'stale', 'already', 'unassign-required', 'unassign-reassign', 'human-cancel', 'unassign-default']) add(name, ai.max);
      add('human-to-ai', null);
      add('human-no-ai', null);
      add('unassign-no-template', ai.max, `${main.public_key}-bare`);
    });
  });

  const assign = (name: string, body: Record<string, unknown>) => business.api.post('/conversation/ai-employee', { conversation: { uuid: conversationFor(name) }, ...body });
  const unassign = (path: string, name: string, body: Record<string, unknown> = {}) => business.api.post(path, { conversation: { uuid: conversationFor(name) }, ...body });

  it('requires scheduled_message_action, changing nothing without it', async () => {
    const schedule = await seedPendingSchedule(business, conversationFor('required'), { executor_kind: 'ai_employee', ai_employee_id: ai.max });
    const response = await assign('required', { ai_employee: { uuid: ai.eva } });
    expect([response.status, response.body.code]).toEqual([400, 'SCHEDULED_MESSAGE_ACTION_REQUIRED']);
    expect(await storedSchedule(schedule)).toMatchObject({ status: 'pending', ai_employee_id: ai.max });
    expect(await storedConversation(conversationFor('required'))).toMatchObject({ ai_employee_id: ai.max });
    expect(await pendingScheduleOf(conversationFor('required'))).toBe(schedule);
  });

  // A value other than reassign or cancel is SCHEDULED_MESSAGE_ACTION_INVALID:
  // libs/conversations-domain/src/ai-assignment/scheduled-message-action.spec.ts.

  it('cancel: the schedule is cancelled (with history) and the conversation has no pending schedule', async () => {
    const schedule = await seedPendingSchedule(business, conversationFor('cancel'), { executor_kind: 'ai_employee', ai_employee_id: ai.max });
    const response = await assign('cancel', { ai_employee: { uuid: ai.eva }, scheduled_message_action: 'cancel' });
    expect(response.status).toBe(200);
    const stored = await storedSchedule(schedule);
    expect(stored?.status).toBe('cancelled');
    expect(stored?.history.at(-1)).toMatchObject({ event: 'cancelled', status: 'cancelled', actor: { type: 'api_token', uuid: business.tokenUuid } });
    expect(await storedConversation(conversationFor('cancel'))).toMatchObject({ ai_employee_id: ai.eva });
    expect(await pendingScheduleOf(conversationFor('cancel'))).toBeNull();
  });

  it('reassign to another AI employee: still pending, fired by the new employee', async () => {
    const schedule = await seedPendingSchedule(business, conversationFor('reassign-ai'), { executor_kind: 'ai_employee', ai_employee_id: ai.max, template_id: templates.fallback });
    const response = await assign('reassign-ai', { ai_employee: { name: 'Eva' }, scheduled_message_action: 'reassign' });
    expect(response.status).toBe(200);
    const stored = await storedSchedule(schedule);
    expect(stored).toMatchObject({ status: 'pending', executor_kind: 'ai_employee', ai_employee_id: ai.eva, template_id: templates.fallback });
    expect(stored?.history.at(-1)).toMatchObject({ event: 'reassigned', status: 'pending', executor_kind: 'ai_employee', ai_employee_id: ai.eva });
    expect(await storedConversation(conversationFor('reassign-ai'))).toMatchObject({ ai_employee_id: ai.eva });
    expect(await pendingScheduleOf(conversationFor('reassign-ai'))).toBe(schedule);
  });

  it('reassign of a human schedule to an AI employee makes it an AI schedule', async () => {
    const schedule = await seedPendingSchedule(business, conversationFor('human-to-ai'), { executor_kind: 'human_user', template_id: templates.fallback });
    expect((await assign('human-to-ai', { ai_employee: { uuid: ai.max } })).body.code).toBe('SCHEDULED_MESSAGE_ACTION_REQUIRED');
    const response = await assign('human-to-ai', { ai_employee: { uuid: ai.max }, scheduled_message_action: 'reassign' });
    expect(response.status).toBe(200);
    expect(await storedSchedule(schedule)).toMatchObject({ status: 'pending', executor_kind: 'ai_employee', ai_employee_id: ai.max });
  });

  it('needs no action when the schedule is no longer pending', async () => {
    const schedule = await seedPendingSchedule(business, conversationFor('stale'), { executor_kind: 'ai_employee', ai_employee_id: ai.max });
    // As its firing leaves it: no longer its conversation's pending schedule.
    await storedCollection('scheduled_messages').updateOne({ _id: schedule }, { $set: { status: 'sent' }, $unset: { pending_conversation_key: '', pending_id: '' } });
    const response = await assign('stale', { ai_employee: { uuid: ai.eva } });
    expect(response.status).toBe(200);
    expect(await storedSchedule(schedule)).toMatchObject({ status: 'sent', ai_employee_id: ai.max });
  });

  it('needs no action when the owner does not change (already assigned is 409)', async () => {
    await seedPendingSchedule(business, conversationFor('already'), { executor_kind: 'ai_employee', ai_employee_id: ai.max });
    const response = await assign('already', { ai_employee: { uuid: ai.max } });
    expect([response.status, response.body.code]).toEqual([409, 'AI_EMPLOYEE_ALREADY_ASSIGNED']);
  });

  it('unassign requires the action too, and a human-owned conversation needs none', async () => {
    await seedPendingSchedule(business, conversationFor('unassign-required'), { executor_kind: 'ai_employee', ai_employee_id: ai.max });
    for (const path of ['/conversation/unassign-ai', '/conversation/human']) {
      const response = await unassign(path, 'unassign-required');
      expect({ path, status: response.status, code: response.body.code }).toEqual({ path, status: 400, code: 'SCHEDULED_MESSAGE_ACTION_REQUIRED' });
    }
    expect(await storedConversation(conversationFor('unassign-required'))).toMatchObject({ ai_employee_id: ai.max, inbox_status: 'resolved' });

    const humanSchedule = await seedPendingSchedule(business, conversationFor('human-no-ai'), { executor_kind: 'human_user', template_id: templates.fallback });
    expect((await unassign('/conversation/unassign-ai', 'human-no-ai')).status).toBe(200);
    expect(await storedSchedule(humanSchedule)).toMatchObject({ status: 'pending', executor_kind: 'human_user' });
  });

  it('unassign with reassign: humans fire the fallback template', async () => {
    const schedule = await seedPendingSchedule(business, conversationFor('unassign-reassign'), { executor_kind: 'ai_employee', ai_employee_id: ai.max, template_id: templates.fallback });
    const response = await unassign('/conversation/unassign-ai', 'unassign-reassign', { scheduled_message_action: 'reassign' });
    expect(response.status).toBe(200);
    expect(await storedSchedule(schedule)).toMatchObject({
      status: 'pending',
      executor_kind: 'human_user',
      ai_employee_id: null,
      message_kind: 'template',
      template_id: templates.fallback,
      payload: { kind: 'template', template_uuid: templates.fallback, variables: [{ index: 1, value: 'Ana' }] },
    });
    expect(await storedConversation(conversationFor('unassign-reassign'))).toMatchObject({ ai_employee_id: null });
    expect(await pendingScheduleOf(conversationFor('unassign-reassign'))).toBe(schedule);
  });

  it("unassign with reassign of a schedule without fallback uses the channel's default scheduled template", async () => {
    const schedule = await seedPendingSchedule(business, conversationFor('unassign-default'), { executor_kind: 'ai_employee', ai_employee_id: ai.max });
    const response = await unassign('/conversation/unassign-ai', 'unassign-default', { scheduled_message_action: 'reassign' });
    expect(response.status).toBe(200);
    expect(await storedSchedule(schedule)).toMatchObject({ executor_kind: 'human_user', template_id: templates.channelDefault, payload: { template_uuid: templates.channelDefault } });
  });

  it('unassign with reassign and no template at all is TEMPLATE_NOT_FOUND, changing nothing', async () => {
    const schedule = await seedPendingSchedule(business, conversationFor('unassign-no-template'), { executor_kind: 'ai_employee', ai_employee_id: ai.max });
    const response = await unassign('/conversation/unassign-ai', 'unassign-no-template', { scheduled_message_action: 'reassign' });
    expect([response.status, response.body.code]).toEqual([404, 'TEMPLATE_NOT_FOUND']);
    expect(await storedSchedule(schedule)).toMatchObject({ status: 'pending', executor_kind: 'ai_employee', ai_employee_id: ai.max });
    expect((await storedConversation(conversationFor('unassign-no-template')))?.ai_employee_id).toBe(ai.max);
  });

  it('hand to human with cancel: schedule cancelled, AI removed, pending', async () => {
    const schedule = await seedPendingSchedule(business, conversationFor('human-cancel'), { executor_kind: 'ai_employee', ai_employee_id: ai.max });
    const response = await unassign('/conversation/human', 'human-cancel', { scheduled_message_action: 'cancel' });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ conversation: { uuid: conversationFor('human-cancel') }, ai_employee: null, inbox_status: 'pending' });
    expect((await storedSchedule(schedule))?.status).toBe('cancelled');
    expect(await storedConversation(conversationFor('human-cancel'))).toMatchObject({ ai_employee_id: null, inbox_status: 'pending', pending_reason: 'human_handoff' });
    expect(await pendingScheduleOf(conversationFor('human-cancel'))).toBeNull();
  });
});
