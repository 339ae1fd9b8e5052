import { type ScheduleHistoryEntry, createScheduledMessageCommand, scheduleContextNoteId } from '@cmsg/conversation-commands';
import { CatalogError } from '@cmsg/errors';
import type { BusinessScope, ExecutingStatus, ScheduleOutcome, ScheduledMessageEntity } from '@cmsg/dal';
import { AiPipelines } from '../ai/ai-pipelines';
import { FakeAiProvider } from '../testing/fake-ai-provider';
import { FakeConversationServices } from '../testing/fake-conversation-services';
import { silentLogger } from '../testing/silent-logger';
import { abandonFiredScheduledMessage, executeFiredScheduledMessage } from './execute-fired-scheduled-message.usecase';
import type { FiredSchedules } from './fired-schedules';

const SCHEDULE = '5c4b3a29-1111-4222-8333-444455556666';
const ANA = 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa';
const TEMPLATE = 'bbbbbbbb-bbbb-4bbb-8bbb-bbbbbbbbbbbb';
const QUICK_REPLY = 'cccccccc-cccc-4ccc-8ccc-cccccccccccc';
const clock = { now: () => new Date('2026-01-01T00:00:00Z') };

/** The conditional updates of ScheduledMessageRepository, in memory. */
class InMemoryFiredSchedules implements FiredSchedules {
  schedules = new Map<string, ScheduledMessageEntity>();
  notes = new Map<string, { conversation_id: string; body: string | null; author: string }>();
  defaultTemplate: string | null = null;

  async find(_scope: BusinessScope, id: string) {
    const found = this.schedules.get(id);
    return found ? { ...found } : null;
  }
  async startSending(_scope: BusinessScope, schedule: ScheduledMessageEntity, decision: { delivery: string; noteId: string | null }, entries: ScheduleHistoryEntry[]) {
    const found = this.schedules.get(schedule._id)!;
    if (found.status !== 'firing') return null;
    Object.assign(found, { status: 'sending', delivery: decision.delivery, note_id: decision.noteId, history: [...found.history, ...entries] });
    return { ...found };
  }
  async switchDelivery(_scope: BusinessScope, id: string, delivery: string, entry: ScheduleHistoryEntry) {
    const found = this.schedules.get(id)!;
    if (found.status === 'sending') Object.assign(found, { delivery, history: [...found.history, entry] });
  }
  async finish(_scope: BusinessScope, schedule: ScheduledMessageEntity, from: ExecutingStatus, outcome: ScheduleOutcome, entries: ScheduleHistoryEntry[], delivery?: string) {
    const found = this.schedules.get(schedule._id)!;
    if (found.status !== from) return false;
    Object.assign(found, { status: outcome.status, error: outcome.error, history: [...found.history, ...entries], ...(delivery ? { delivery } : {}) });
    return true;
  }
  async addContextNote(_scope: BusinessScope, found: ScheduledMessageEntity, authorTokenUuid: string) {
    const id = scheduleContextNoteId(found._id);
    if (!this.notes.has(id)) this.notes.set(id, { conversation_id: found.conversation_id, body: found.reason, author: authorTokenUuid });
    return id;
  }
  async defaultScheduledTemplateId() {
    return this.defaultTemplate;
  }
}

describe('executeFiredScheduledMessage', () => {
  let fake: FakeConversationServices;
  let provider: FakeAiProvider;
  let store: InMemoryFiredSchedules;
  const ports = () => ({ services: fake.services, ai: new AiPipelines(fake.services, provider, clock, silentLogger), store, clock, logger: silentLogger });

  const command = () =>
    createScheduledMessageCommand({
      schedule_uuid: SCHEDULE,
      business_id: 'b1',
      conversation_uuid: fake.context.uuid,
      token_uuid: 'token-1',
      executor_kind: store.schedules.get(SCHEDULE)!.executor_kind,
      due_at: '2026-01-01T00:00:00.000Z',
      fired_at: '2026-01-01T00:00:01.000Z',
      request_id: null,
    });

  function schedule(fields: Partial<ScheduledMessageEntity>): ScheduledMessageEntity {
    const stored: ScheduledMessageEntity = {
      _id: SCHEDULE,
      business_id: 'b1',
      conversation_id: fake.context.uuid,
      status: 'firing',
      executor_kind: 'human_user',
      ai_employee_id: null,
      reason: null,
      template_id: TEMPLATE,
      message_kind: 'message',
      payload: { kind: 'message', text: 'See you tomorrow' },
      template_variables: [{ index: 1, value: 'Ana' }],
      template_header: null,
      template_button_parameters: [],
      schedule_at: new Date('2026-01-01T00:00:00Z'),
      schedule_local: null,
      cancel_on_customer_reply: false,
      is_tester: false,
      created_by_token_id: 'token-1',
      author: { type: 'api_token', uuid: 'token-1' },
      error: null,
      fired_at: new Date('2026-01-01T00:00:01Z'),
      fire_claim: 'replica-1/claim',
      delivery: null,
      note_id: null,
      history: [],
      created_at: new Date('2025-12-31T00:00:00Z'),
      updated_at: new Date('2026-01-01T00:00:01Z'),
      ...fields,
    };
    store.schedules.set(SCHEDULE, stored);
    return stored;
  }

  const stored = () => store.schedules.get(SCHEDULE)!;
  const sends = () => fake.callsOf('sendMessage');

  beforeEach(() => {
    fake = new FakeConversationServices();
    fake.addEmployee({ uuid: ANA, name: 'Ana' });
    provider = new FakeAiProvider();
    store = new InMemoryFiredSchedules();
  });

  describe('human branch', () => {
    it('sends the literal text while the window is open, once, even when the command comes again', async () => {
      schedule({});
      await executeFiredScheduledMessage(command(), ports());
      await executeFiredScheduledMessage(command(), ports());
      expect(sends()).toEqual([
        expect.objectContaining({ operation_id: `schedule:${SCHEDULE}:literal`, author: { type: 'api_token', uuid: 'token-1' }, text: { body: 'See you tomorrow' } }),
      ]);
      expect(stored()).toMatchObject({ status: 'sent', delivery: 'literal' });
      expect(stored().history.map((entry) => entry.event)).toEqual(['sending', 'sent']);
    });

    it('sends its template with the schedule variables when the text is refused for a closed window', async () => {
      schedule({});
      fake.failNext('sendMessage', 'WINDOW_CLOSED');
      await executeFiredScheduledMessage(command(), ports());
      expect(fake.callsOf('getConversationContext')).toHaveLength(0);
      expect(sends()).toEqual([
        expect.objectContaining({ operation_id: `schedule:${SCHEDULE}:literal` }),
        expect.objectContaining({
          operation_id: `schedule:${SCHEDULE}:template`,
          template: { template: { uuid: TEMPLATE, name: undefined, language: undefined }, variables: [{ index: 1, value: 'Ana' }], header: undefined, button_parameters: [] },
        }),
      ]);
      expect(stored()).toMatchObject({ status: 'sent', delivery: 'template' });
    });

    it('a template payload decides from the window: closed, its fallback template goes out, never the payload', async () => {
      const payload = { kind: 'template', template_uuid: 'eeeeeeee-eeee-4eee-8eee-eeeeeeeeeeee', variables: [] };
      schedule({ message_kind: 'template', payload });
      fake.context = { ...fake.context, window_status: 'closed' };
      await executeFiredScheduledMessage(command(), ports());
      expect(sends().map((request) => request.operation_id)).toEqual([`schedule:${SCHEDULE}:template`]);
      expect(stored()).toMatchObject({ status: 'sent', delivery: 'template' });

      store = new InMemoryFiredSchedules();
      fake.context = { ...fake.context, window_status: 'open' };
      schedule({ message_kind: 'template', payload });
      await executeFiredScheduledMessage(command(), ports());
      expect(sends()[1]).toMatchObject({ operation_id: `schedule:${SCHEDULE}:literal`, template: { template: { uuid: payload.template_uuid } } });
    });

    it('sends a quick reply and a template payload as scheduled', async () => {
      schedule({ message_kind: 'quick_reply', payload: { kind: 'quick_reply', quick_reply_uuid: QUICK_REPLY } });
      await executeFiredScheduledMessage(command(), ports());
      expect(sends()[0]).toMatchObject({ quick_reply: { uuid: QUICK_REPLY } });
    });

    it('follows a delivery path decided by an earlier run, never deciding again', async () => {
      schedule({ status: 'sending', delivery: 'literal' });
      fake.context = { ...fake.context, window_status: 'closed' };
      await executeFiredScheduledMessage(command(), ports());
      expect(sends().map((request) => request.operation_id)).toEqual([`schedule:${SCHEDULE}:literal`]);
    });

    it('ends failed with the send error code', async () => {
      schedule({});
      fake.failAlways('sendMessage', 'SEND_FAILED', 'provider down');
      await executeFiredScheduledMessage(command(), ports());
      expect(stored()).toMatchObject({ status: 'failed', error: { code: 'SEND_FAILED', message: 'provider down' } });
    });

    it('rethrows an unanswered dependency for the stream to retry; the retry sends under the same operation id', async () => {
      schedule({});
      fake.failNext('sendMessage', 'SERVICE_UNAVAILABLE');
      await expect(executeFiredScheduledMessage(command(), ports())).rejects.toMatchObject({ code: 'SERVICE_UNAVAILABLE' });
      expect(stored()).toMatchObject({ status: 'firing', delivery: null, history: [] });
      await executeFiredScheduledMessage(command(), ports());
      expect(stored()).toMatchObject({ status: 'sent', delivery: 'literal' });
      expect(sends().map((request) => request.operation_id)).toEqual([`schedule:${SCHEDULE}:literal`, `schedule:${SCHEDULE}:literal`]);
    });

    it('a re-run after the template was recorded for a refused text sends the template, not the text', async () => {
      schedule({ status: 'sending', delivery: 'template' });
      await executeFiredScheduledMessage(command(), ports());
      expect(sends().map((request) => request.operation_id)).toEqual([`schedule:${SCHEDULE}:template`]);
      expect(stored()).toMatchObject({ status: 'sent', delivery: 'template' });
    });

    it('an unanswered window read before the path is decided leaves the schedule firing', async () => {
      schedule({ message_kind: 'template', payload: { kind: 'template', template_uuid: TEMPLATE, variables: [] } });
      fake.failNext('getConversationContext', 'SERVICE_UNAVAILABLE');
      await expect(executeFiredScheduledMessage(command(), ports())).rejects.toMatchObject({ code: 'SERVICE_UNAVAILABLE' });
      expect(stored()).toMatchObject({ status: 'firing', delivery: null });
    });

    it('a copy of the command after the outcome sends nothing and changes nothing', async () => {
      schedule({});
      await executeFiredScheduledMessage(command(), ports());
      const finished = { ...stored() };
      await executeFiredScheduledMessage(command(), ports());
      expect(sends()).toHaveLength(1);
      expect(stored()).toEqual(finished);
    });

    it('two copies running at once: one decides the path, both follow it, one outcome is recorded', async () => {
      schedule({});
      await Promise.all([executeFiredScheduledMessage(command(), ports()), executeFiredScheduledMessage(command(), ports())]);
      expect(new Set(sends().map((request) => request.operation_id))).toEqual(new Set([`schedule:${SCHEDULE}:literal`]));
      expect(stored().history.map((entry) => entry.event)).toEqual(['sending', 'sent']);
    });
  });

  describe('AI branch', () => {
    const aiSchedule = (fields: Partial<ScheduledMessageEntity> = {}) =>
      schedule({ executor_kind: 'ai_employee', ai_employee_id: ANA, reason: 'Follow up on the quote', template_id: null, message_kind: null, payload: null, template_variables: [], ...fields });

    it('adds the reason as a note, then the AI replies with an operation id from the schedule', async () => {
      aiSchedule();
      fake.context = { ...fake.context, ai_employee_uuid: ANA };
      await executeFiredScheduledMessage(command(), ports());
      await executeFiredScheduledMessage(command(), ports());
      expect([...store.notes.values()]).toEqual([{ conversation_id: fake.context.uuid, body: 'Follow up on the quote', author: 'token-1' }]);
      expect(sends()).toEqual([expect.objectContaining({ operation_id: `schedule:${SCHEDULE}:ai_run:reply`, author: { type: 'ai_employee', uuid: ANA } })]);
      expect(stored()).toMatchObject({ status: 'sent', delivery: 'ai_run', note_id: scheduleContextNoteId(SCHEDULE) });
    });

    it('a re-run after the note was written but before its id was recorded writes no second note', async () => {
      aiSchedule();
      fake.context = { ...fake.context, ai_employee_uuid: ANA };
      store.notes.set(scheduleContextNoteId(SCHEDULE), { conversation_id: fake.context.uuid, body: 'Follow up on the quote', author: 'token-1' });
      await executeFiredScheduledMessage(command(), ports());
      expect(store.notes.size).toBe(1);
      expect(stored()).toMatchObject({ status: 'sent', note_id: scheduleContextNoteId(SCHEDULE) });
    });

    it('sends the fallback template when the window is closed, else the channel default', async () => {
      aiSchedule({ template_id: TEMPLATE });
      fake.context = { ...fake.context, window_status: 'closed' };
      await executeFiredScheduledMessage(command(), ports());
      expect(sends()).toEqual([expect.objectContaining({ operation_id: `schedule:${SCHEDULE}:ai_fallback_template`, template: expect.objectContaining({ template: expect.objectContaining({ uuid: TEMPLATE }) }) })]);
      expect(provider.requests).toHaveLength(0);

      store = new InMemoryFiredSchedules();
      store.defaultTemplate = 'dddddddd-dddd-4ddd-8ddd-dddddddddddd';
      aiSchedule();
      await executeFiredScheduledMessage(command(), ports());
      expect(sends()[1]).toMatchObject({ template: { template: { uuid: 'dddddddd-dddd-4ddd-8ddd-dddddddddddd' } } });
    });

    it('fails TEMPLATE_NOT_FOUND with the window closed and no fallback at all', async () => {
      aiSchedule();
      fake.context = { ...fake.context, window_status: 'closed' };
      await executeFiredScheduledMessage(command(), ports());
      expect(stored()).toMatchObject({ status: 'failed', error: { code: 'TEMPLATE_NOT_FOUND' } });
    });

    it('fails with the AI error code', async () => {
      aiSchedule();
      provider.failWith = new CatalogError('AI_EXECUTION_FAILED', 'boom');
      await executeFiredScheduledMessage(command(), ports());
      expect(stored()).toMatchObject({ status: 'failed', error: { code: 'AI_EXECUTION_FAILED' } });
    });
  });

  it.each(['cancelled', 'sent', 'failed', 'pending'] as const)('leaves a %s schedule alone (only a claimed one runs: the firer claims before it produces)', async (status) => {
    schedule({ status });
    await executeFiredScheduledMessage(command(), ports());
    expect(sends()).toHaveLength(0);
    expect(stored().status).toBe(status);
  });

  it.each(['firing', 'sending'] as const)('abandons a dead-lettered command of a %s schedule as failed UPDATE_FAILED', async (status) => {
    schedule({ status, delivery: status === 'sending' ? 'literal' : null });
    await abandonFiredScheduledMessage(command(), new CatalogError('SERVICE_UNAVAILABLE', 'down'), { store, clock });
    expect(stored()).toMatchObject({ status: 'failed', error: { code: 'UPDATE_FAILED' } });
  });

  it('does not abandon a schedule that finished', async () => {
    schedule({ status: 'sent' });
    await abandonFiredScheduledMessage(command(), new CatalogError('SERVICE_UNAVAILABLE', 'down'), { store, clock });
    expect(stored()).toMatchObject({ status: 'sent', error: null });
  });
});
