import { CatalogError, type ErrorCode } from '@cmsg/errors';
import { type AiEmployee, type ConversationContext, applyChangesHandler } from '@cmsg/proto';
import type { ConversationActionsPort, ConversationServices, ConversationsPort } from '../ports';

type Port = ConversationActionsPort & ConversationsPort;
type Method = keyof Port;

export interface RecordedCall {
  method: Method;
  request: any;
}

/**
 * Conversation RPC doubles for specs: every call is recorded; each method answers a canned
 * response, or a catalog error queued with failNext / failAlways.
 */
export class FakeConversationServices {
  readonly calls: RecordedCall[] = [];
  context: ConversationContext = {
    uuid: '11111111-1111-4111-8111-111111111111',
    contact_uuid: '22222222-2222-4222-8222-222222222222',
    is_tester: false,
    window_status: 'open',
    ai_employee_uuid: undefined,
    inbox_status: 'resolved',
    media_awaiting_transcription: 0,
    vision_wallet_tokens: 1000,
    now: '2026-01-01T00:00:00.000Z',
  };
  employees = new Map<string, AiEmployee>();
  /** What applyChanges reports as each change's time. */
  changeDurationMs = 1;
  private readonly failures = new Map<Method, { code: ErrorCode; message?: string; always: boolean }[]>();
  private readonly overrides = new Map<Method, (request: any) => unknown>();

  addEmployee(employee: Partial<AiEmployee> & { uuid: string; name: string }): AiEmployee {
    const full: AiEmployee = { model: 'gpt-test', instructions: 'Be helpful.', wallet_tokens: 1000, wallet_blocked: false, ...employee };
    this.employees.set(full.uuid, full);
    return full;
  }

  failNext(method: Method, code: ErrorCode, message?: string): void {
    this.failures.set(method, [...(this.failures.get(method) ?? []), { code, message, always: false }]);
  }

  failAlways(method: Method, code: ErrorCode, message?: string): void {
    this.failures.set(method, [{ code, message, always: true }]);
  }

  answer(method: Method, response: (request: any) => unknown): void {
    this.overrides.set(method, response);
  }

  callsOf(method: Method): any[] {
    return this.calls.filter((call) => call.method === method).map((call) => call.request);
  }

  get services(): ConversationServices {
    const port = this.port();
    return { actions: port, conversations: port };
  }

  private port(): Port {
    const handle = (method: Method, response: (request: any) => unknown) => async (request: any): Promise<any> => {
      this.calls.push({ method, request });
      const queue = this.failures.get(method) ?? [];
      const failure = queue[0];
      if (failure) {
        if (!failure.always) queue.shift();
        throw new CatalogError(failure.code, failure.message);
      }
      return (this.overrides.get(method) ?? response)(request);
    };
    const conversation = { uuid: this.context.uuid };
    const port: Omit<Port, 'applyChanges'> = {
      assignTags: handle('assignTags', (request) => ({ conversation, tags: [], results: request.tags.map((tag: unknown) => ({ requested: tag, status: 'assigned' })) })),
      removeTags: handle('removeTags', (request) => ({ conversation, tags: [], results: request.tags.map((tag: unknown) => ({ requested: tag, status: 'removed' })) })),
      assignMailbox: handle('assignMailbox', () => ({ conversation, mailbox: { uuid: 'm', name: 'Sales' }, noop: false })),
      assignAiEmployee: handle('assignAiEmployee', (request) => ({ conversation, ai_employee: { uuid: request.ai_employee.uuid ?? 'resolved', name: 'AI' }, noop: false })),
      unassignAi: handle('unassignAi', () => ({ conversation, inbox_status: 'resolved', noop: false })),
      sendMessage: handle('sendMessage', () => ({ conversation, message: { uuid: 'msg-1', status: 'sent', created_at: '2026-01-01T00:00:00Z' }, messages: [] })),
      escalate: handle('escalate', () => ({ conversation, inbox_status: 'pending' })),
      resolveConversation: handle('resolveConversation', () => ({ uuid: this.context.uuid })),
      getConversationContext: handle('getConversationContext', () => ({ ...this.context })),
      getRecentTimeline: handle('getRecentTimeline', () => ({ entries: [{ role: 'customer', text: 'Hello', at: '2026-01-01T00:00:00Z' }] })),
      resolveAiEmployee: handle('resolveAiEmployee', (request) => {
        const ref = request.ai_employee ?? {};
        const found = ref.uuid ? this.employees.get(ref.uuid) : [...this.employees.values()].find((employee) => employee.name.toLowerCase() === String(ref.name).toLowerCase());
        if (!found) throw new CatalogError('AI_EMPLOYEE_NOT_FOUND');
        return found;
      }),
      chargeAiWallet: handle('chargeAiWallet', () => ({ wallet_tokens: 900 })),
      addNote: handle('addNote', () => ({ conversation, note: { uuid: 'note-1', created_at: '2026-01-01T00:00:00Z' } })),
      markPending: handle('markPending', () => ({ conversation, inbox_status: 'pending' })),
      markResolved: handle('markResolved', () => ({ conversation, inbox_status: 'resolved' })),
    };
    // Each change's time is read before and after it: a clock stepping one duration per read gives each that duration.
    let clock = 0;
    const applyChanges = applyChangesHandler(port, () => (clock += this.changeDurationMs)).applyChanges;
    return { ...port, applyChanges: handle('applyChanges', applyChanges) };
  }
}
