import { businessScope, pendingConversationKey } from '@cmsg/dal';
import { CatalogError } from '@cmsg/errors';
import type { SchedulingPorts } from '../ports';
import { InMemorySchedulingWorld } from '../testing/in-memory-scheduling-ports';
import { addBusiness, addConversation, addOwned, addSchedule, addTemplate } from '../testing/scheduling-builders';
import { createScheduledMessageCommand } from './create-scheduled-message.command';
import { createScheduledMessage } from './create-scheduled-message.usecase';

// 12:00 UTC is 06:00 in Mexico City (UTC-6 all year): schedule times below are local.
const NOW = '2026-03-02T12:00:00.000Z';
const ZONE = 'America/Mexico_City';
const caller = { business_id: 'b1', token_uuid: 'token-1' };
const DAY_MS = 24 * 60 * 60 * 1000;
/** A well-formed uuid nothing has. */
const UNKNOWN = '00000000-0000-4000-8000-00000000ffff';

describe('createScheduledMessage', () => {
  let world: InMemorySchedulingWorld;
  let catalog: { ana: string; bruno: string; greeting: string; reminder: string; pendingTemplate: string; welcome: string; photo: string };
  let conversations: { human: string; humanClosed: string; ai: string; tester: string };
  let theirs: { conversation: string; ai: string; template: string; quickReply: string; file: string };

  const create = async (body: Record<string, unknown>, ports: SchedulingPorts = world.ports(), who = caller) => createScheduledMessage(createScheduledMessageCommand(who, body), ports);
  const codeOf = (body: Record<string, unknown>) =>
    create(body).then(
      () => 'created',
      (error: unknown) => (error instanceof CatalogError ? error.code : `not a catalog error: ${String(error)}`),
    );
  const aiSchedule = (conversation: string, fields: Record<string, unknown> = {}) => ({
    executor_kind: 'ai_employee',
    conversation: { uuid: conversation },
    schedule_at: { date: '2026-03-02', time: '07:00' },
    reason: 'Follow up on the quote',
    ...fields,
  });
  const humanSchedule = (conversation: string, fields: Record<string, unknown> = {}) => ({
    executor_kind: 'human_user',
    conversation: { uuid: conversation },
    schedule_at: { date: '2026-03-02', time: '07:00' },
    message_kind: 'message',
    payload: { kind: 'message', text: 'See you at 5' },
    template_uuid: catalog.greeting,
    ...fields,
  });
  const variables = [
    { index: 1, value: 'Ana' },
    { index: 2, value: 'lunes' },
  ];
  const templateKind = () => ({ message_kind: 'template', payload: { kind: 'template', template_uuid: catalog.reminder, variables }, template_uuid: catalog.reminder, template_variables: variables });
  const expectNothingWritten = () => {
    expect(world.schedules.filter((schedule) => schedule.business_id === 'b1')).toEqual([]);
    expect(world.recorded).toEqual([]);
  };

  beforeEach(() => {
    world = new InMemorySchedulingWorld(NOW);
    addBusiness(world, 'b1', { time_zone: ZONE, tester_clock_offset_ms: 30 * DAY_MS });
    addBusiness(world, 'b2', { time_zone: ZONE });
    catalog = {
      ana: addOwned(world, 'aiEmployees', 'b1'),
      bruno: addOwned(world, 'aiEmployees', 'b1'),
      greeting: addTemplate(world, 'b1', { name: 'greeting' }),
      reminder: addTemplate(world, 'b1', { name: 'appointment_reminder', variable_count: 2 }),
      pendingTemplate: addTemplate(world, 'b1', { name: 'promo_pending', status: 'pending' }),
      welcome: addOwned(world, 'quickReplies', 'b1'),
      photo: addOwned(world, 'confirmedFiles', 'b1'),
    };
    conversations = {
      human: addConversation(world, 'b1'),
      humanClosed: addConversation(world, 'b1', { last_inbound_at: new Date(Date.parse(NOW) - 2 * DAY_MS) }),
      ai: addConversation(world, 'b1', { ai_employee_id: catalog.ana }),
      // The customer wrote an hour ago in real time: 30 virtual days ago, its window closed on the virtual clock.
      tester: addConversation(world, 'b1', { is_tester: true }),
    };
    theirs = {
      conversation: addConversation(world, 'b2'),
      ai: addOwned(world, 'aiEmployees', 'b2'),
      template: addTemplate(world, 'b2'),
      quickReply: addOwned(world, 'quickReplies', 'b2'),
      file: addOwned(world, 'confirmedFiles', 'b2'),
    };
  });

  describe('success', () => {
    it("stores an AI schedule as the conversation's pending one, read in the business zone, with the assigned AI, and records its created event", async () => {
      const answer = await create(aiSchedule(conversations.ai, { cancel_on_customer_reply: true }));
      const [schedule] = world.schedules;

      expect(answer).toEqual({ uuid: schedule!._id, executor_kind: 'ai_employee', schedule_at: '2026-03-02T13:00:00.000Z', status: 'pending' });
      expect(world.contextRequests).toEqual([{ caller, conversation: { uuid: conversations.ai } }]);
      expect(world.schedules).toHaveLength(1);
      expect(schedule).toMatchObject({
        business_id: 'b1',
        conversation_id: conversations.ai,
        pending_conversation_key: pendingConversationKey(businessScope('b1'), conversations.ai),
        status: 'pending',
        executor_kind: 'ai_employee',
        ai_employee_id: catalog.ana,
        reason: 'Follow up on the quote',
        template_id: null,
        message_kind: null,
        payload: null,
        schedule_at: new Date('2026-03-02T13:00:00Z'),
        schedule_local: { date: '2026-03-02', time: '07:00', time_zone: ZONE },
        cancel_on_customer_reply: true,
        is_tester: false,
        created_by_token_id: 'token-1',
        author: { type: 'api_token', uuid: 'token-1' },
        error: null,
        fired_at: null,
        created_at: new Date(NOW),
        updated_at: new Date(NOW),
      });
      expect(schedule!.history).toEqual([
        { at: new Date(NOW), event: 'created', status: 'pending', reason: null, actor: { type: 'api_token', uuid: 'token-1' }, detail: { schedule_at: '2026-03-02T13:00:00.000Z' } },
      ]);
      expect(schedule!.outbox).toEqual([expect.objectContaining({ type: 'scheduled_message.created', conversation_id: conversations.ai, created_at: new Date(NOW) })]);
      expect(world.recorded).toEqual([{ collection: 'scheduled_messages', businessId: 'b1', documentId: schedule!._id, entry: schedule!.outbox![0] }]);
    });

    it('takes the given AI employee and fallback template, and the given scheduled_uuid as its id', async () => {
      const id = '11111111-1111-4111-8111-111111111111';
      const answer = await create(aiSchedule(conversations.ai, { scheduled_uuid: id, ai_employee_uuid: catalog.ana, template_uuid: catalog.greeting }));
      expect(answer.uuid).toBe(id);
      expect(world.scheduleById(id)).toMatchObject({ ai_employee_id: catalog.ana, template_id: catalog.greeting });
    });

    it('stores each human payload kind with its template and variables; with the window closed, a template', async () => {
      const header = { type: 'image', file_uuid: catalog.photo };
      await create(humanSchedule(conversations.human, { payload: { kind: 'message', text: 'Look', media: { file_uuid: catalog.photo } }, template_header: header }));
      expect(world.schedules.at(-1)).toMatchObject({
        executor_kind: 'human_user',
        ai_employee_id: null,
        reason: null,
        message_kind: 'message',
        payload: { kind: 'message', text: 'Look', media: { file_uuid: catalog.photo } },
        template_id: catalog.greeting,
        template_header: header,
        template_variables: [],
      });
      await create(humanSchedule(conversations.human, { message_kind: 'quick_reply', payload: { kind: 'quick_reply', quick_reply_uuid: catalog.welcome } }));
      expect(world.schedules.at(-1)).toMatchObject({ message_kind: 'quick_reply', payload: { kind: 'quick_reply', quick_reply_uuid: catalog.welcome } });
      await create(humanSchedule(conversations.humanClosed, templateKind()));
      expect(world.schedules.at(-1)).toMatchObject({ conversation_id: conversations.humanClosed, message_kind: 'template', template_id: catalog.reminder, template_variables: variables });
    });

    it('replaces the pending schedule of the conversation: the previous one is cancelled (reason replaced) before the new one is stored', async () => {
      const previous = addSchedule(world, 'b1', conversations.human);
      world.advance(60_000);
      const answer = await create(humanSchedule(conversations.human));

      expect(world.scheduleById(previous)).toMatchObject({ status: 'cancelled', updated_at: world.now });
      expect(world.scheduleById(previous)!.pending_conversation_key).toBeUndefined();
      expect(world.scheduleById(previous)!.history.at(-1)).toEqual({
        at: world.now,
        event: 'cancelled',
        status: 'cancelled',
        reason: 'replaced',
        actor: { type: 'api_token', uuid: 'token-1' },
        detail: { replaced_by: answer.uuid },
      });
      expect(await world.ports().schedules.pendingOfConversation(businessScope('b1'), conversations.human)).toMatchObject({ _id: answer.uuid });
      expect(world.recorded.map((event) => [event.documentId, event.entry.type])).toEqual([
        [previous, 'scheduled_message.cancelled'],
        [answer.uuid, 'scheduled_message.created'],
      ]);
    });

    it('reads a business without a time zone in UTC', async () => {
      world.businesses[0]!.time_zone = '';
      expect((await create(aiSchedule(conversations.ai, { schedule_at: { date: '2026-03-02', time: '13:00' } }))).schedule_at).toBe('2026-03-02T13:00:00.000Z');
    });

    it('measures a tester conversation against the business virtual clock, the window included', async () => {
      const virtualDay = { date: '2026-04-01', time: '07:00' };
      expect(await codeOf(humanSchedule(conversations.tester, { schedule_at: virtualDay }))).toBe('WINDOW_CLOSED');
      expect(await codeOf(humanSchedule(conversations.tester, { ...templateKind(), schedule_at: { date: '2026-03-12', time: '07:00' } }))).toBe('INVALID_REQUEST');
      await create(humanSchedule(conversations.tester, { ...templateKind(), schedule_at: virtualDay }));
      expect(world.schedules.at(-1)).toMatchObject({ conversation_id: conversations.tester, is_tester: true, schedule_at: new Date('2026-04-01T13:00:00Z') });
    });
  });

  describe('INVALID_REQUEST', () => {
    it('for a command without a business or with a body the public schema refuses, naming the field', async () => {
      const thrownBy = (run: () => unknown) => {
        try {
          run();
        } catch (error) {
          return error;
        }
        return 'nothing thrown';
      };
      expect(thrownBy(() => createScheduledMessageCommand({ business_id: '', token_uuid: 't' }, aiSchedule(conversations.ai)))).toMatchObject({
        code: 'INVALID_REQUEST',
        message: 'Invalid request: caller.business_id is required.',
      });
      expect(thrownBy(() => createScheduledMessageCommand(caller, aiSchedule(conversations.ai, { reason: '' })))).toMatchObject({ code: 'INVALID_REQUEST', message: expect.stringContaining('reason') });
      expect(await codeOf({ ...aiSchedule(conversations.ai), executor_kind: 'robot' })).toBe('INVALID_REQUEST');
      expect(world.contextRequests).toEqual([]);
    });

    it('for a time in the past, now itself, or more than 366 days ahead of the conversation now', async () => {
      await expect(create(aiSchedule(conversations.ai, { schedule_at: { date: '2026-03-02', time: '05:59' } }))).rejects.toMatchObject({
        code: 'INVALID_REQUEST',
        message: 'Invalid request: schedule_at: 2026-03-02T11:59:00.000Z is not in the future (now is 2026-03-02T12:00:00.000Z).',
      });
      expect(await codeOf(aiSchedule(conversations.ai, { schedule_at: { date: '2026-03-02', time: '06:00' } }))).toBe('INVALID_REQUEST');
      await expect(create(aiSchedule(conversations.ai, { schedule_at: { date: '2027-03-03', time: '06:01' } }))).rejects.toMatchObject({
        code: 'INVALID_REQUEST',
        message: 'Invalid request: schedule_at: 2027-03-03T12:01:00.000Z is more than 366 days ahead.',
      });
      expectNothingWritten();
      expect(await codeOf(aiSchedule(conversations.ai, { schedule_at: { date: '2027-03-03', time: '06:00' } }))).toBe('created');
    });

    it('for a local time a daylight-saving change skips in the business zone', async () => {
      world.businesses[0]!.time_zone = 'America/New_York';
      await expect(create(aiSchedule(conversations.ai, { schedule_at: { date: '2026-03-08', time: '02:30' } }))).rejects.toMatchObject({
        code: 'INVALID_REQUEST',
        message: 'Invalid request: schedule_at: 2026-03-08 02:30 does not exist in America/New_York (skipped by a daylight-saving change).',
      });
      expectNothingWritten();
    });

    it('for template variables that do not fit the template, naming the field', async () => {
      await expect(create(humanSchedule(conversations.human, { template_uuid: catalog.reminder, template_variables: [{ index: 1, value: 'Ana' }] }))).rejects.toMatchObject({
        code: 'INVALID_REQUEST',
        message: 'Invalid request: template_variables: TEMPLATE_VARIABLES_INVALID: template appointment_reminder expects 2 variables, got 1.',
      });
      const payload = { kind: 'template', template_uuid: catalog.reminder, variables: [{ index: 1, value: 'a' }, { index: 3, value: 'b' }] };
      await expect(create(humanSchedule(conversations.human, { message_kind: 'template', payload }))).rejects.toMatchObject({
        code: 'INVALID_REQUEST',
        message: 'Invalid request: payload.variables: TEMPLATE_VARIABLES_INVALID: template appointment_reminder has no variable {{3}}.',
      });
      expectNothingWritten();
    });
  });

  describe('references (404)', () => {
    it("passes the conversation service's answers through: CONVERSATION_NOT_FOUND (another business's too), PHONE_NUMBER_AMBIGUOUS", async () => {
      expect(await codeOf(aiSchedule(UNKNOWN))).toBe('CONVERSATION_NOT_FOUND');
      expect(await codeOf(aiSchedule(theirs.conversation))).toBe('CONVERSATION_NOT_FOUND');
      world.refuseNextContext(new CatalogError('PHONE_NUMBER_AMBIGUOUS'));
      expect(await codeOf({ ...aiSchedule(''), conversation: { phone: '+52 55 1234 5678' } })).toBe('PHONE_NUMBER_AMBIGUOUS');
      expectNothingWritten();
    });

    it("AI_EMPLOYEE_NOT_FOUND for an unknown AI employee and another business's", async () => {
      for (const id of [UNKNOWN, theirs.ai]) {
        await expect(create(aiSchedule(conversations.ai, { ai_employee_uuid: id }))).rejects.toMatchObject({ code: 'AI_EMPLOYEE_NOT_FOUND', message: `No AI employee ${id} in this business.` });
      }
      expectNothingWritten();
    });

    it("TEMPLATE_NOT_FOUND for an unknown or another business's template, in each field that names one", async () => {
      const cases: [Record<string, unknown>, string, string][] = [
        [aiSchedule(conversations.ai, { template_uuid: theirs.template }), 'template_uuid', theirs.template],
        [humanSchedule(conversations.human, { template_uuid: theirs.template }), 'template_uuid', theirs.template],
        [humanSchedule(conversations.human, { message_kind: 'template', payload: { kind: 'template', template_uuid: UNKNOWN, variables: [] } }), 'payload.template_uuid', UNKNOWN],
      ];
      for (const [body, field, id] of cases) {
        await expect(create(body)).rejects.toMatchObject({ code: 'TEMPLATE_NOT_FOUND', message: `${field}: no template ${id} in this business.` });
      }
      expectNothingWritten();
    });

    it("QUICK_REPLY_NOT_FOUND for an unknown or another business's quick reply", async () => {
      for (const id of [UNKNOWN, theirs.quickReply]) {
        await expect(create(humanSchedule(conversations.human, { message_kind: 'quick_reply', payload: { kind: 'quick_reply', quick_reply_uuid: id } }))).rejects.toMatchObject({
          code: 'QUICK_REPLY_NOT_FOUND',
          message: `No quick reply ${id} in this business.`,
        });
      }
      expectNothingWritten();
    });

    it("FILE_NOT_FOUND for media and headers not uploaded and confirmed in this business, naming the field", async () => {
      const imageOf = (file: string) => ({ type: 'image', file_uuid: file });
      const cases: [Record<string, unknown>, string, string][] = [
        [humanSchedule(conversations.human, { payload: { kind: 'message', text: 'Look', media: { file_uuid: theirs.file } } }), 'payload.media.file_uuid', theirs.file],
        [humanSchedule(conversations.human, { template_header: imageOf(UNKNOWN) }), 'template_header.file_uuid', UNKNOWN],
        [humanSchedule(conversations.human, { message_kind: 'template', payload: { kind: 'template', template_uuid: catalog.greeting, variables: [], header: imageOf(theirs.file) } }), 'payload.header.file_uuid', theirs.file],
      ];
      for (const [body, field, id] of cases) {
        await expect(create(body)).rejects.toMatchObject({ code: 'FILE_NOT_FOUND', message: `${field}: no confirmed file ${id} (module api_messages) in this business.` });
      }
      expectNothingWritten();
    });
  });

  describe('the conversation as it is now (422)', () => {
    it('NO_AI_EMPLOYEE_ASSIGNED: AI branch, none assigned and none given', async () => {
      await expect(create(aiSchedule(conversations.human))).rejects.toMatchObject({ code: 'NO_AI_EMPLOYEE_ASSIGNED' });
      expectNothingWritten();
    });

    it('OWNER_MISMATCH: another AI than the assigned one, an AI given while none is assigned, a human schedule on an AI conversation', async () => {
      expect(await codeOf(aiSchedule(conversations.ai, { ai_employee_uuid: catalog.bruno }))).toBe('OWNER_MISMATCH');
      expect(await codeOf(aiSchedule(conversations.human, { ai_employee_uuid: catalog.ana }))).toBe('OWNER_MISMATCH');
      expect(await codeOf(humanSchedule(conversations.ai))).toBe('OWNER_MISMATCH');
      expectNothingWritten();
    });

    it('WINDOW_CLOSED: human branch with the window closed now, anything but a template', async () => {
      await expect(create(humanSchedule(conversations.humanClosed))).rejects.toMatchObject({
        code: 'WINDOW_CLOSED',
        message: 'The 24-hour window is closed now; schedule message_kind template (got message).',
      });
      expect(await codeOf(humanSchedule(conversations.humanClosed, { message_kind: 'quick_reply', payload: { kind: 'quick_reply', quick_reply_uuid: catalog.welcome } }))).toBe('WINDOW_CLOSED');
      expectNothingWritten();
    });

    it('TEMPLATE_NOT_APPROVED for a template that exists but is not approved', async () => {
      await expect(create(aiSchedule(conversations.ai, { template_uuid: catalog.pendingTemplate }))).rejects.toMatchObject({
        code: 'TEMPLATE_NOT_APPROVED',
        message: 'template_uuid: template promo_pending is pending, not approved.',
      });
      expect(await codeOf(humanSchedule(conversations.human, { template_uuid: catalog.pendingTemplate }))).toBe('TEMPLATE_NOT_APPROVED');
      expectNothingWritten();
    });

    it('checks in order: reference, scheduled_uuid reuse, time, owner, referenced objects, window', async () => {
      const used = addSchedule(world, 'b2', theirs.conversation);
      expect(await codeOf(aiSchedule(UNKNOWN, { scheduled_uuid: used }))).toBe('CONVERSATION_NOT_FOUND');
      expect(await codeOf(aiSchedule(conversations.ai, { scheduled_uuid: used, schedule_at: { date: '2020-01-01', time: '00:00' } }))).toBe('SCHEDULE_CONFLICT');
      expect(await codeOf(humanSchedule(conversations.ai, { schedule_at: { date: '2020-01-01', time: '00:00' } }))).toBe('INVALID_REQUEST');
      expect(await codeOf(humanSchedule(conversations.ai, { template_uuid: UNKNOWN }))).toBe('OWNER_MISMATCH');
      expect(await codeOf(humanSchedule(conversations.humanClosed, { template_uuid: UNKNOWN }))).toBe('TEMPLATE_NOT_FOUND');
    });
  });

  describe('SCHEDULE_CONFLICT and FETCH_FAILED', () => {
    it('for a scheduled_uuid used before, whichever business used it, changing nothing', async () => {
      const used = addSchedule(world, 'b2', theirs.conversation);
      const mine = addSchedule(world, 'b1', conversations.human);
      for (const id of [used, mine]) {
        await expect(create(humanSchedule(conversations.human, { scheduled_uuid: id }))).rejects.toMatchObject({
          code: 'SCHEDULE_CONFLICT',
          message: `scheduled_uuid ${id} was already used; retry with another scheduled_uuid or none.`,
        });
      }
      expect(world.scheduleById(mine)).toMatchObject({ status: 'pending' });
      expect(world.recorded).toEqual([]);
    });

    it('when a concurrent create with the same scheduled_uuid inserted first: neither is cancelled', async () => {
      const id = '22222222-2222-4222-8222-222222222222';
      const ports = world.ports();
      const racing: SchedulingPorts = {
        ...ports,
        schedules: {
          ...ports.schedules,
          insertPending: async (scope, schedule) => {
            addSchedule(world, 'b1', conversations.ai, { _id: id });
            return ports.schedules.insertPending(scope, schedule);
          },
        },
      };
      await expect(create(humanSchedule(conversations.human, { scheduled_uuid: id }), racing)).rejects.toMatchObject({ code: 'SCHEDULE_CONFLICT' });
      expect(world.schedules.map((schedule) => [schedule.conversation_id, schedule.status])).toEqual([[conversations.ai, 'pending']]);
      expect(world.recorded).toEqual([]);
    });

    it("when another schedule of the conversation was stored at the same moment: the previous one stays cancelled, the other one pending", async () => {
      const previous = addSchedule(world, 'b1', conversations.human);
      const ports = world.ports();
      let rival = '';
      const racing: SchedulingPorts = {
        ...ports,
        schedules: {
          ...ports.schedules,
          insertPending: async (scope, schedule) => {
            rival = addSchedule(world, 'b1', conversations.human);
            return ports.schedules.insertPending(scope, schedule);
          },
        },
      };
      await expect(create(humanSchedule(conversations.human), racing)).rejects.toMatchObject({
        code: 'SCHEDULE_CONFLICT',
        message: 'Another schedule of this conversation was created at the same moment (the previous pending one, if any, was cancelled); retry with a new scheduled_uuid or none.',
      });
      expect(world.schedules.map((schedule) => [schedule._id, schedule.status])).toEqual([
        [previous, 'cancelled'],
        [rival, 'pending'],
      ]);
      expect(world.recorded.map((event) => [event.documentId, event.entry.type])).toEqual([[previous, 'scheduled_message.cancelled']]);
    });

    it('when the owner changed while the rules were checked: the new schedule is cancelled again (reason owner_changed)', async () => {
      const ports = world.ports();
      const ownerChanges: SchedulingPorts = {
        ...ports,
        schedules: {
          ...ports.schedules,
          insertPending: async (scope, schedule) => {
            world.conversationById(conversations.ai)!.ai_employee_id = catalog.bruno;
            return ports.schedules.insertPending(scope, schedule);
          },
        },
      };
      await expect(create(aiSchedule(conversations.ai), ownerChanges)).rejects.toMatchObject({
        code: 'SCHEDULE_CONFLICT',
        message: 'The conversation owner changed while the schedule was being created; retry with a new scheduled_uuid or none.',
      });
      const [schedule] = world.schedules;
      expect(schedule).toMatchObject({ status: 'cancelled', ai_employee_id: catalog.ana });
      expect(schedule!.history.at(-1)).toMatchObject({ event: 'cancelled', reason: 'owner_changed', actor: { type: 'api_token', uuid: 'token-1' } });
      expect(world.recorded.map((event) => event.entry.type)).toEqual(['scheduled_message.created', 'scheduled_message.cancelled']);
    });

    it('FETCH_FAILED when the business of the caller no longer exists', async () => {
      world.businesses.splice(0, 1);
      await expect(create(aiSchedule(conversations.ai))).rejects.toMatchObject({ code: 'FETCH_FAILED', message: 'The business of this caller no longer exists.' });
      expectNothingWritten();
    });
  });
});
