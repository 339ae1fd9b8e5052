import { type ScheduleDeliveryPath, type ScheduleHistoryEntry, createScheduledMessageCommand, scheduleContextNoteId } from '@cmsg/conversation-commands';
import { CatalogError } from '@cmsg/errors';
import type { BusinessScope } from '@cmsg/dal';
import { AiPipelines } from '../ai/ai-pipelines';
import { FakeAiProvider } from '../testing/fake-ai-provider';
import { FakeConversationServices } from '../testing/fake-conversation-services';
import { silentLogger } from '../testing/silent-logger';
import { abandonFiredScheduledMessage, executeFiredScheduledMessage } from './execute-fired-scheduled-message';
import type { FiredSchedule, FiredScheduleStore, ScheduleOutcome } from './fired-schedule.store';

const SCHEDULE = '5c4b3a29-1111-4222-8333-444455556666';
const ANA = 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa';
const TEMPLATE = 'bbbbbbbb-bbbb-4bbb-8bbb-bbbbbbbbbbbb';
const QUICK_REPLY = 'cccccccc-cccc-4ccc-8ccc-cccccccccccc';
const clock = { now: () => new Date('2026-01-01T00:00:00Z') };

class InMemoryFiredScheduleStore implements FiredScheduleStore {
  schedules = new Map<string, FiredSchedule & { error?: unknown; history: ScheduleHistoryEntry[] }>();
  claims = new Map<string, Record<string, unknown>>();
  pointer: string | null = SCHEDULE;
  defaultTemplate: string | null = null;

  private claim(key: string, data: Record<string, unknown>): boolean {
    if (this.claims.has(key)) return false;
    this.claims.set(key, data);
    return true;
  }
  async find(_scope: BusinessScope, id: string) {
    const found = this.schedules.get(id);
    return found ? { ...found } : null;
  }
  async decisions(_scope: BusinessScope, id: string) {
    this.claim(`fate:${id}`, { decision: 'fire' });
    const fate = this.claims.get(`fate:${id}`)!['decision'] as 'fire' | 'cancel';
    const outcome = (this.claims.get(`outcome:${id}`) as ScheduleOutcome | undefined) ?? null;
    const deliveryPath = ((this.claims.get(`delivery:${id}:2`) ?? this.claims.get(`delivery:${id}:1`))?.['path'] as ScheduleDeliveryPath | undefined) ?? null;
    return { fate, outcome, deliveryPath };
  }
  async decideDelivery(_scope: BusinessScope, id: string, stage: 1 | 2, path: ScheduleDeliveryPath, entry: ScheduleHistoryEntry) {
    if (this.claim(`delivery:${id}:${stage}`, { path })) {
      const found = this.schedules.get(id)!;
      Object.assign(found, { delivery: path, history: [...found.history, entry] });
    }
    return this.claims.get(`delivery:${id}:${stage}`)!['path'] as ScheduleDeliveryPath;
  }
  notes = new Map<string, { conversation_id: string; body: string | null; author: string }>();
  async addContextNote(_scope: BusinessScope, found: FiredSchedule, authorTokenUuid: string) {
    const id = scheduleContextNoteId(found._id);
    if (!this.notes.has(id)) this.notes.set(id, { conversation_id: found.conversation_id, body: found.reason, author: authorTokenUuid });
    return id;
  }
  async recordNote(_scope: BusinessScope, id: string, noteId: string) {
    const found = this.schedules.get(id)!;
    if (found.note_id === null) found.note_id = noteId;
  }
  async finish(_scope: BusinessScope, id: string, outcome: ScheduleOutcome, entry: ScheduleHistoryEntry) {
    if (!this.claim(`outcome:${id}`, outcome)) return false;
    const found = this.schedules.get(id)!;
    Object.assign(found, { status: outcome.status, error: outcome.error, history: [...found.history, entry] });
    return true;
  }
  async releaseConversation(_scope: BusinessScope, _conversationId: string, scheduleId: string) {
    if (this.pointer === scheduleId) this.pointer = null;
  }
  async defaultScheduledTemplateId() {
    return this.defaultTemplate;
  }
}

describe('executeFiredScheduledMessage', () => {
  let fake: FakeConversationServices;
  let provider: FakeAiProvider;
  let store: InMemoryFiredScheduleStore;
  const ports = () => ({ services: fake.services, ai: new AiPipelines(fake.services, provider, clock, silentLogger), store, clock, logger: silentLogger });

  const command = () =>
    createScheduledMessageCommand({
      schedule_uuid: SCHEDULE,
      business_id: 'b1',
      conversation_uuid: fake.context.uuid,
      token_uuid: 'token-1',
      executor_kind: store.schedules.get(SCHEDULE)!.executor_kind as 'ai_employee' | 'human_user',
      due_at: '2026-01-01T00:00:00.000Z',
      fired_at: '2026-01-01T00:00:01.000Z',
      request_id: null,
    });

  function schedule(fields: Partial<FiredSchedule>): FiredSchedule {
    const stored = {
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
      created_by_token_id: 'token-1',
      author: { type: 'api_token', uuid: 'token-1' },
      delivery: null,
      note_id: null,
      history: [],
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
    store = new InMemoryFiredScheduleStore();
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
      expect(store.pointer).toBeNull();
    });

    it('sends its template with the schedule variables when the window is closed', async () => {
      schedule({});
      fake.context = { ...fake.context, window_status: 'closed' };
      await executeFiredScheduledMessage(command(), ports());
      expect(sends()).toEqual([
        expect.objectContaining({
          operation_id: `schedule:${SCHEDULE}:template`,
          template: { template: { uuid: TEMPLATE, name: undefined, language: undefined }, variables: [{ index: 1, value: 'Ana' }], header: undefined, button_parameters: [] },
        }),
      ]);
      expect(stored()).toMatchObject({ status: 'sent', delivery: 'template' });
    });

    it('falls back to the template when the window closes between the decision and the send', async () => {
      schedule({});
      fake.failNext('sendMessage', 'WINDOW_CLOSED');
      await executeFiredScheduledMessage(command(), ports());
      expect(sends().map((request) => request.operation_id)).toEqual([`schedule:${SCHEDULE}:literal`, `schedule:${SCHEDULE}:template`]);
      expect(stored()).toMatchObject({ status: 'sent', delivery: 'template' });
    });

    it('sends a quick reply and a template payload as scheduled', async () => {
      schedule({ message_kind: 'quick_reply', payload: { kind: 'quick_reply', quick_reply_uuid: QUICK_REPLY } });
      await executeFiredScheduledMessage(command(), ports());
      expect(sends()[0]).toMatchObject({ quick_reply: { uuid: QUICK_REPLY } });
    });

    it('follows a delivery path decided by an earlier run, never deciding again', async () => {
      schedule({});
      store.claims.set(`delivery:${SCHEDULE}:1`, { path: 'literal' });
      fake.context = { ...fake.context, window_status: 'closed' };
      await executeFiredScheduledMessage(command(), ports());
      expect(sends().map((request) => request.operation_id)).toEqual([`schedule:${SCHEDULE}:literal`]);
    });

    it('ends failed with the send error code', async () => {
      schedule({});
      fake.failAlways('sendMessage', 'SEND_FAILED', 'provider down');
      await executeFiredScheduledMessage(command(), ports());
      expect(stored()).toMatchObject({ status: 'failed', error: { code: 'SEND_FAILED', message: 'provider down' } });
      expect(store.pointer).toBeNull();
    });

    it('rethrows an unanswered dependency for the stream to retry, leaving the schedule firing', async () => {
      schedule({});
      fake.failNext('getConversationContext', 'SERVICE_UNAVAILABLE');
      await expect(executeFiredScheduledMessage(command(), ports())).rejects.toMatchObject({ code: 'SERVICE_UNAVAILABLE' });
      expect(stored().status).toBe('firing');
      await executeFiredScheduledMessage(command(), ports());
      expect(stored().status).toBe('sent');
      expect(sends()).toHaveLength(1);
    });

    it('a copy of the command after the outcome sends nothing and releases the conversation', async () => {
      schedule({});
      await executeFiredScheduledMessage(command(), ports());
      store.pointer = SCHEDULE;
      await executeFiredScheduledMessage(command(), ports());
      expect(sends()).toHaveLength(1);
      expect(store.pointer).toBeNull();
    });
  });

  describe('AI branch', () => {
    const aiSchedule = (fields: Partial<FiredSchedule> = {}) =>
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

      store = new InMemoryFiredScheduleStore();
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

  it('leaves a cancelled or finished schedule alone', async () => {
    schedule({ status: 'cancelled' });
    store.claims.set(`fate:${SCHEDULE}`, { decision: 'cancel' });
    await executeFiredScheduledMessage(command(), ports());
    expect(sends()).toHaveLength(0);
    expect(stored().status).toBe('cancelled');
  });

  it('runs a schedule whose record still says pending (the command outran the scheduler record)', async () => {
    schedule({ status: 'pending' });
    await executeFiredScheduledMessage(command(), ports());
    expect(stored().status).toBe('sent');
    expect(stored().history.map((entry) => entry.event)).toEqual(['sending', 'sent']);
  });

  it('abandons a dead-lettered command as failed UPDATE_FAILED', async () => {
    schedule({});
    await abandonFiredScheduledMessage(command(), new CatalogError('SERVICE_UNAVAILABLE', 'down'), { store, clock });
    expect(stored()).toMatchObject({ status: 'failed', error: { code: 'UPDATE_FAILED' } });
  });
});
