import { randomUUID } from 'node:crypto';
import { createTestBusiness, storedCollection, uniquePhone } from '@cmsg/testing';
import { DateTime } from 'luxon';
import {
  type SchedulingBusiness,
  aiSchedule,
  closedConversation,
  createSchedulingBusiness,
  humanSchedule,
  localIn,
  openConversation,
} from './scheduling-fixtures';

const ZONE = 'America/Mexico_City';

describe('POST /{slug}/conversation/scheduled-message (SPEC 4.1)', () => {
  let business: SchedulingBusiness;
  const conversations = { human: '', humanClosed: '', ai: '', aiClosed: '', tester: '', sharedPhone: '', sharedName: '' };
  const sharedPhone = uniquePhone();

  beforeAll(async () => {
    business = await createSchedulingBusiness(
      (seed, catalog) => {
        conversations.human = openConversation(seed);
        conversations.humanClosed = closedConversation(seed);
        conversations.ai = openConversation(seed, { ai_employee: catalog.ai.ana });
        conversations.aiClosed = closedConversation(seed, { ai_employee: catalog.ai.ana });
        conversations.tester = openConversation(seed, {}, { is_tester: true });
        openConversation(seed, {}, { phone: sharedPhone });
        openConversation(seed, {}, { phone: sharedPhone });
        openConversation(seed, {}, { chat_username: 'twin_user' });
        openConversation(seed, {}, { chat_username: 'Twin_User' });
      },
      { tokens: 4 },
    );
  });

  const post = (body: unknown) => business.nextClient().post('/conversation/scheduled-message', body);
  const answer = async (body: unknown) => {
    const response = await post(body);
    return [response.status, response.body.code];
  };

  describe('success', () => {
    it('201 with data {uuid, executor_kind, schedule_at in UTC, status pending}, local time read in the business zone', async () => {
      const local = localIn(ZONE, 90);
      const response = await post(aiSchedule(conversations.ai, ZONE, { schedule_at: local }));
      expect(response.status).toBe(201);
      expect(response.body).toEqual({ data: { uuid: expect.any(String), executor_kind: 'ai_employee', schedule_at: expect.stringMatching(/Z$/), status: 'pending' } });
      const expected = DateTime.fromISO(`${local.date}T${local.time}`, { zone: ZONE }).toUTC().toISO({ suppressMilliseconds: false });
      expect(response.body.data.schedule_at).toBe(expected);
    });

    it('stores the token as the audit key and author, the assigned AI when none is given, and shows it all on GET', async () => {
      const scheduledUuid = randomUUID();
      const created = await post(aiSchedule(conversations.ai, ZONE, { scheduled_uuid: scheduledUuid, ai_employee_uuid: null, template_uuid: business.catalog.templates.greeting }));
      expect([created.status, created.body.data?.uuid]).toEqual([201, scheduledUuid]);
      const stored = await storedCollection('scheduled_messages').findOne({ _id: scheduledUuid as never });
      expect(stored).toMatchObject({ created_by_token_id: expect.any(String), author: { type: 'api_token', uuid: stored!['created_by_token_id'] }, ai_employee_id: business.catalog.ai.ana });
      const view = await business.nextClient().get(`/scheduled-messages/${scheduledUuid}`);
      expect(view.status).toBe(200);
      expect(view.body).toMatchObject({
        uuid: scheduledUuid,
        conversation: { uuid: conversations.ai },
        executor_kind: 'ai_employee',
        status: 'pending',
        ai_employee_uuid: business.catalog.ai.ana,
        reason: 'Follow up on the quote',
        template_uuid: business.catalog.templates.greeting,
        cancel_on_customer_reply: false,
        is_tester: false,
        author: { type: 'api_token', uuid: stored!['created_by_token_id'] },
        error: null,
        fired_at: null,
        history: [expect.objectContaining({ event: 'created', status: 'pending' })],
      });
      expect(view.body.schedule_local).toMatchObject({ time_zone: ZONE });
    });

    it('accepts each human payload kind with the window open, and a template with it closed', async () => {
      const { catalog } = business;
      const variables = [{ index: 1, value: 'Ana' }, { index: 2, value: 'lunes' }];
      expect((await post(humanSchedule(conversations.human, ZONE, catalog))).status).toBe(201);
      expect((await post(humanSchedule(conversations.human, ZONE, catalog, { message_kind: 'quick_reply', payload: { kind: 'quick_reply', quick_reply_uuid: catalog.quickReplies.welcome } }))).status).toBe(201);
      const template = { message_kind: 'template', payload: { kind: 'template', template_uuid: catalog.templates.reminder, variables }, template_uuid: catalog.templates.reminder, template_variables: variables };
      expect((await post(humanSchedule(conversations.human, ZONE, catalog, template))).status).toBe(201);
      expect((await post(humanSchedule(conversations.humanClosed, ZONE, catalog, template))).status).toBe(201);
    });

    it('measures a tester conversation against the business virtual clock', async () => {
      const moved = await business.nextClient().post('/tester/clock', { advance_seconds: 30 * 24 * 3600 });
      expect(moved.status).toBe(200);
      const virtualNow = DateTime.fromISO(moved.body.tester_virtual_now);
      // The customer wrote 5 real minutes ago, 30 virtual days ago: the window is closed on the virtual clock.
      const variables = [{ index: 1, value: 'Ana' }, { index: 2, value: 'lunes' }];
      const template = { message_kind: 'template', payload: { kind: 'template', template_uuid: business.catalog.templates.reminder, variables }, template_uuid: business.catalog.templates.reminder, template_variables: variables };
      expect(await answer(humanSchedule(conversations.tester, ZONE, business.catalog, { schedule_at: localIn(ZONE, 10, virtualNow) }))).toEqual([422, 'WINDOW_CLOSED']);
      // Ten days from now is in the virtual past; 370 days from now is within 366 virtual days.
      expect(await answer(humanSchedule(conversations.tester, ZONE, business.catalog, { ...template, schedule_at: localIn(ZONE, 10 * 24 * 60) }))).toEqual([400, 'INVALID_REQUEST']);
      expect((await post(humanSchedule(conversations.tester, ZONE, business.catalog, { ...template, schedule_at: localIn(ZONE, 370 * 24 * 60) }))).status).toBe(201);
      const created = await post(humanSchedule(conversations.tester, ZONE, business.catalog, { ...template, schedule_at: localIn(ZONE, 10, virtualNow) }));
      expect(created.status).toBe(201);
      expect(Date.parse(created.body.data.schedule_at)).toBeGreaterThan(virtualNow.toMillis());
    });
  });

  describe('400 INVALID_REQUEST', () => {
    it('for an invalid body: unknown executor, bad date or time, reason too long, message_kind not the payload kind', async () => {
      const bodies = [
        { ...aiSchedule(conversations.ai, ZONE), executor_kind: 'robot' },
        aiSchedule(conversations.ai, ZONE, { schedule_at: { date: '2027-02-30', time: '10:00' } }),
        aiSchedule(conversations.ai, ZONE, { schedule_at: { date: '2027-02-03', time: '24:00' } }),
        aiSchedule(conversations.ai, ZONE, { schedule_at: { date: '2027/02/03', time: '9:00' } }),
        aiSchedule(conversations.ai, ZONE, { reason: 'x'.repeat(501) }),
        aiSchedule(conversations.ai, ZONE, { reason: '' }),
        humanSchedule(conversations.human, ZONE, business.catalog, { message_kind: 'quick_reply' }),
        humanSchedule(conversations.human, ZONE, business.catalog, { payload: { kind: 'message', text: 'x'.repeat(4097) } }),
        humanSchedule(conversations.human, ZONE, business.catalog, { payload: { kind: 'message' } }),
      ];
      for (const body of bodies) expect(await answer(body)).toEqual([400, 'INVALID_REQUEST']);
    });

    it('for a missing template_uuid on the human branch, naming TEMPLATE_REQUIRED', async () => {
      const { template_uuid: _omitted, ...body } = humanSchedule(conversations.human, ZONE, business.catalog);
      const response = await post(body);
      expect([response.status, response.body.code]).toEqual([400, 'INVALID_REQUEST']);
      expect(response.body.message).toContain('TEMPLATE_REQUIRED');
    });

    // The horizon (past, beyond 366 days), template variables that do not fit and daylight-saving
    // gaps and overlaps: libs/scheduling-domain/src/create/create-scheduled-message.usecase.spec.ts
    // and libs/scheduling-domain/src/schedule-time/local-schedule-time.spec.ts.
  });

  describe('authentication and scope', () => {
    it('401 INVALID_API_TOKEN and 403 TOKEN_BUSINESS_MISMATCH', async () => {
      const body = aiSchedule(conversations.ai, ZONE);
      expect((await business.api.withToken(`cmsg_${'0'.repeat(64)}`).post('/conversation/scheduled-message', body)).body.code).toBe('INVALID_API_TOKEN');
      const other = await createTestBusiness();
      const mismatch = await business.api.withSlug(other.slug).post('/conversation/scheduled-message', body);
      expect([mismatch.status, mismatch.body.code]).toEqual([403, 'TOKEN_BUSINESS_MISMATCH']);
    });
  });

  describe('404', () => {
    it('CONVERSATION_NOT_FOUND, AI_EMPLOYEE_NOT_FOUND, TEMPLATE_NOT_FOUND, QUICK_REPLY_NOT_FOUND', async () => {
      const { catalog } = business;
      expect(await answer(aiSchedule(randomUUID(), ZONE))).toEqual([404, 'CONVERSATION_NOT_FOUND']);
      expect(await answer(aiSchedule(conversations.ai, ZONE, { ai_employee_uuid: randomUUID() }))).toEqual([404, 'AI_EMPLOYEE_NOT_FOUND']);
      expect(await answer(aiSchedule(conversations.ai, ZONE, { template_uuid: randomUUID() }))).toEqual([404, 'TEMPLATE_NOT_FOUND']);
      expect(await answer(humanSchedule(conversations.human, ZONE, catalog, { template_uuid: randomUUID() }))).toEqual([404, 'TEMPLATE_NOT_FOUND']);
      const missingPayloadTemplate = { message_kind: 'template', payload: { kind: 'template', template_uuid: randomUUID(), variables: [] } };
      expect(await answer(humanSchedule(conversations.human, ZONE, catalog, missingPayloadTemplate))).toEqual([404, 'TEMPLATE_NOT_FOUND']);
      const quickReply = { message_kind: 'quick_reply', payload: { kind: 'quick_reply', quick_reply_uuid: randomUUID() } };
      expect(await answer(humanSchedule(conversations.human, ZONE, catalog, quickReply))).toEqual([404, 'QUICK_REPLY_NOT_FOUND']);
    });

    it('FILE_NOT_FOUND for media and header files that were not uploaded and confirmed', async () => {
      const { catalog } = business;
      expect(await answer(humanSchedule(conversations.human, ZONE, catalog, { payload: { kind: 'message', text: 'Look', media: { file_uuid: randomUUID() } } }))).toEqual([404, 'FILE_NOT_FOUND']);
      expect(await answer(humanSchedule(conversations.human, ZONE, catalog, { template_header: { type: 'image', file_uuid: randomUUID() } }))).toEqual([404, 'FILE_NOT_FOUND']);
    });
  });

  describe('409', () => {
    it('PHONE_NUMBER_AMBIGUOUS and USERNAME_AMBIGUOUS', async () => {
      expect(await answer({ ...aiSchedule('', ZONE), conversation: { phone: sharedPhone } })).toEqual([409, 'PHONE_NUMBER_AMBIGUOUS']);
      expect(await answer({ ...aiSchedule('', ZONE), conversation: { username: '@twin_user' } })).toEqual([409, 'USERNAME_AMBIGUOUS']);
    });

    it('SCHEDULE_CONFLICT for a reused scheduled_uuid, whoever used it', async () => {
      const scheduledUuid = randomUUID();
      expect((await post(aiSchedule(conversations.ai, ZONE, { scheduled_uuid: scheduledUuid }))).status).toBe(201);
      expect(await answer(aiSchedule(conversations.aiClosed, ZONE, { scheduled_uuid: scheduledUuid }))).toEqual([409, 'SCHEDULE_CONFLICT']);
    });
  });

  describe('422', () => {
    it('NO_AI_EMPLOYEE_ASSIGNED: AI branch, no AI assigned and none given', async () => {
      expect(await answer(aiSchedule(conversations.human, ZONE))).toEqual([422, 'NO_AI_EMPLOYEE_ASSIGNED']);
    });

    it('OWNER_MISMATCH: another AI than the assigned one, an AI given while none is assigned, a human schedule on an AI conversation', async () => {
      const { catalog } = business;
      expect(await answer(aiSchedule(conversations.ai, ZONE, { ai_employee_uuid: catalog.ai.bruno }))).toEqual([422, 'OWNER_MISMATCH']);
      expect(await answer(aiSchedule(conversations.human, ZONE, { ai_employee_uuid: catalog.ai.ana }))).toEqual([422, 'OWNER_MISMATCH']);
      expect(await answer(humanSchedule(conversations.ai, ZONE, catalog))).toEqual([422, 'OWNER_MISMATCH']);
    });

    it('WINDOW_CLOSED: human branch, window closed now and message_kind not template', async () => {
      const { catalog } = business;
      expect(await answer(humanSchedule(conversations.humanClosed, ZONE, catalog))).toEqual([422, 'WINDOW_CLOSED']);
      const quickReply = { message_kind: 'quick_reply', payload: { kind: 'quick_reply', quick_reply_uuid: catalog.quickReplies.welcome } };
      expect(await answer(humanSchedule(conversations.humanClosed, ZONE, catalog, quickReply))).toEqual([422, 'WINDOW_CLOSED']);
    });

    it('TEMPLATE_NOT_APPROVED for a fallback template that exists but is not approved', async () => {
      const { catalog } = business;
      expect(await answer(aiSchedule(conversations.ai, ZONE, { template_uuid: catalog.templates.pending }))).toEqual([422, 'TEMPLATE_NOT_APPROVED']);
      expect(await answer(humanSchedule(conversations.human, ZONE, catalog, { template_uuid: catalog.templates.pending }))).toEqual([422, 'TEMPLATE_NOT_APPROVED']);
    });
  });

  it('429 RATE_LIMIT_EXCEEDED past 60 requests a minute on one token', async () => {
    const limited = await createTestBusiness();
    const statuses: number[] = [];
    for (let index = 0; index < 61; index += 1) statuses.push((await limited.api.post('/conversation/scheduled-message', {})).status);
    expect(statuses.slice(0, 60).every((status) => status === 400)).toBe(true);
    expect(statuses[60]).toBe(429);
  });
});
