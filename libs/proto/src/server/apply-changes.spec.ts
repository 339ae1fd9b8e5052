import { CatalogError } from '@cmsg/errors';
import type { ConversationChange } from '../generated/cmsg/conversations/v1/conversation_actions';
import { type ConversationChangeHandlers, applyChangesHandler } from './apply-changes';

const caller = { business_id: 'b1', token_uuid: 't1' };
const conversation = { uuid: 'c1' };
const ID = { uuid: 'c1' };

/** Handler doubles that log each call in order; `fail` makes one method throw. */
function handlers(fail: Partial<Record<keyof ConversationChangeHandlers, unknown>> = {}) {
  const calls: string[] = [];
  const answer =
    <Response>(method: keyof ConversationChangeHandlers, response: Response) =>
    async (): Promise<Response> => {
      calls.push(method);
      if (method in fail) throw fail[method];
      return response;
    };
  const tags = { conversation: ID, tags: [], results: [{ requested: { name: 'vip' }, tag: undefined, status: 'assigned', error: undefined }] };
  const doubles: ConversationChangeHandlers = {
    assignTags: answer('assignTags', tags),
    removeTags: answer('removeTags', { ...tags, results: [{ ...tags.results[0]!, status: 'removed' }] }),
    assignMailbox: answer('assignMailbox', { conversation: ID, mailbox: { uuid: 'm', name: 'Sales' }, noop: false }),
    assignAiEmployee: answer('assignAiEmployee', { conversation: ID, ai_employee: { uuid: 'a', name: 'Ana' }, noop: true }),
    unassignAi: answer('unassignAi', { conversation: ID, inbox_status: 'resolved', noop: false }),
    addNote: answer('addNote', { conversation: ID, note: { uuid: 'n', created_at: '2026-01-01T00:00:00Z' } }),
    markPending: answer('markPending', { conversation: ID, inbox_status: 'pending' }),
    markResolved: answer('markResolved', { conversation: ID, inbox_status: 'resolved' }),
  };
  return { calls, doubles };
}

const tagChange = { caller, conversation, tags: [{ name: 'vip' }], policy: 2 };
const EVERY_CHANGE: ConversationChange[] = [
  { assign_tags: tagChange },
  { remove_tags: tagChange },
  { assign_mailbox: { caller, conversation, mailbox: { name: 'Sales' }, category: undefined, policy: 2 } },
  { assign_ai_employee: { caller, conversation, ai_employee: { name: 'Ana' }, policy: 2 } },
  { unassign_ai: { caller, conversation, hand_to_human: false } },
  { add_note: { caller, conversation, note: 'n', operation_id: 'g:5' } },
  { mark_pending: { caller, conversation } },
  { mark_resolved: { caller, conversation } },
];

describe('applyChangesHandler', () => {
  it('applies every change through the handler of its own RPC, in order, and answers each response', async () => {
    const { calls, doubles } = handlers();
    const { results } = await applyChangesHandler(doubles).applyChanges({ changes: EVERY_CHANGE });
    expect(calls).toEqual(['assignTags', 'removeTags', 'assignMailbox', 'assignAiEmployee', 'unassignAi', 'addNote', 'markPending', 'markResolved']);
    expect(results.map((result) => Object.keys(result))).toEqual(
      ['tags', 'tags', 'mailbox', 'ai_employee', 'unassign_ai', 'note', 'inbox_status', 'inbox_status'].map((field) => [field, 'duration_ms']),
    );
    expect(results[7]).toEqual({ inbox_status: { conversation: ID, inbox_status: 'resolved' }, duration_ms: expect.any(Number) });
    expect(results.every((result) => result.duration_ms >= 0)).toBe(true);
  });

  it('answers a catalog error as the change result and applies nothing after it', async () => {
    const { calls, doubles } = handlers({ addNote: new CatalogError('CONVERSATION_NOT_FOUND', 'No such conversation.') });
    const { results } = await applyChangesHandler(doubles).applyChanges({ changes: [{ mark_pending: { caller, conversation } }, { add_note: { caller, conversation, note: 'n', operation_id: 'g:1' } }, { mark_resolved: { caller, conversation } }] });
    expect(calls).toEqual(['markPending', 'addNote']);
    expect(results).toEqual([
      { inbox_status: { conversation: ID, inbox_status: 'pending' }, duration_ms: expect.any(Number) },
      { error: { code: 'CONVERSATION_NOT_FOUND', message: 'No such conversation.' }, duration_ms: expect.any(Number) },
    ]);
  });

  it('stops after a tag change with a failed tag', async () => {
    const { calls, doubles } = handlers();
    doubles.assignTags = async () => {
      calls.push('assignTags');
      return { conversation: ID, tags: [], results: [{ requested: { name: 'x' }, tag: undefined, status: 'failed', error: { code: 'TAG_NOT_FOUND', message: 'No tag named x.' } }] };
    };
    const { results } = await applyChangesHandler(doubles).applyChanges({ changes: [{ assign_tags: tagChange }, { mark_pending: { caller, conversation } }] });
    expect(calls).toEqual(['assignTags']);
    expect(results).toHaveLength(1);
  });

  it('answers a change that names nothing INVALID_REQUEST, and fails the whole call on an error outside the catalog', async () => {
    const { doubles } = handlers({ markPending: new Error('bug') });
    expect(await applyChangesHandler(doubles).applyChanges({ changes: [{}] })).toEqual({ results: [{ error: { code: 'INVALID_REQUEST', message: expect.stringContaining('none') }, duration_ms: expect.any(Number) }] });
    await expect(applyChangesHandler(doubles).applyChanges({ changes: [{ mark_pending: { caller, conversation } }] })).rejects.toThrow('bug');
  });
});
