import { CatalogError, isCatalogError } from '@cmsg/errors';
import type { AddNoteRequest, AddNoteResponse, ConversationRequest, InboxStatusResponse } from '../generated/cmsg/conversations/v1/conversations';
import type {
  ApplyChangesRequest,
  ApplyChangesResponse,
  AssignAiEmployeeRequest,
  AssignAiEmployeeResponse,
  AssignMailboxRequest,
  AssignMailboxResponse,
  ChangeTagsRequest,
  ChangeTagsResponse,
  ConversationChange,
  ConversationChangeResult,
  UnassignAiRequest,
  UnassignAiResponse,
} from '../generated/cmsg/conversations/v1/conversation_actions';

type Unary<Request, Response> = (request: Request) => Promise<Response>;

/** The RPCs whose changes ApplyChanges applies, as the service serves them on their own: each change runs through its own. */
export interface ConversationChangeHandlers {
  assignTags: Unary<ChangeTagsRequest, ChangeTagsResponse>;
  removeTags: Unary<ChangeTagsRequest, ChangeTagsResponse>;
  assignMailbox: Unary<AssignMailboxRequest, AssignMailboxResponse>;
  assignAiEmployee: Unary<AssignAiEmployeeRequest, AssignAiEmployeeResponse>;
  unassignAi: Unary<UnassignAiRequest, UnassignAiResponse>;
  addNote: Unary<AddNoteRequest, AddNoteResponse>;
  markPending: Unary<ConversationRequest, InboxStatusResponse>;
  markResolved: Unary<ConversationRequest, InboxStatusResponse>;
}

/**
 * ApplyChanges as the RPC defines it, on top of the handlers of the single changes: an action
 * group's consecutive changes on one conversation, each applied by the handler of its own RPC, in
 * order, and answered as that RPC answers, with the time it took (the runner places each change's
 * start and end by it; `now` in ms, performance.now unless a test steps it). A catalog error is the
 * change's result; after a change that failed (in whole, or a tag change in part) nothing more is
 * applied, so that the runner records the failure and escalates before the next change runs. The
 * conversations service serves it; the runner's test double answers through it too.
 */
export function applyChangesHandler(handlers: ConversationChangeHandlers, now: () => number = () => performance.now()): { applyChanges: Unary<ApplyChangesRequest, ApplyChangesResponse> } {
  return {
    applyChanges: async (request) => {
      const results: ConversationChangeResult[] = [];
      for (const change of request.changes) {
        const started = now();
        const response = await responseOf(handlers, change).catch((error: unknown): ChangeResponse => {
          if (!isCatalogError(error)) throw error;
          return { error: { code: error.code, message: error.message } };
        });
        const result = { ...response, duration_ms: now() - started };
        results.push(result);
        if (isFailure(result)) break;
      }
      return { results };
    },
  };
}

type ChangeResponse = Omit<ConversationChangeResult, 'duration_ms'>;

async function responseOf(handlers: ConversationChangeHandlers, change: ConversationChange): Promise<ChangeResponse> {
  if (change.assign_tags) return { tags: await handlers.assignTags(change.assign_tags) };
  if (change.remove_tags) return { tags: await handlers.removeTags(change.remove_tags) };
  if (change.assign_mailbox) return { mailbox: await handlers.assignMailbox(change.assign_mailbox) };
  if (change.assign_ai_employee) return { ai_employee: await handlers.assignAiEmployee(change.assign_ai_employee) };
  if (change.unassign_ai) return { unassign_ai: await handlers.unassignAi(change.unassign_ai) };
  if (change.add_note) return { note: await handlers.addNote(change.add_note) };
  if (change.mark_pending) return { inbox_status: await handlers.markPending(change.mark_pending) };
  if (change.mark_resolved) return { inbox_status: await handlers.markResolved(change.mark_resolved) };
  throw new CatalogError('INVALID_REQUEST', 'A change names none of the changes ApplyChanges applies.');
}

function isFailure(result: ConversationChangeResult): boolean {
  return result.error !== undefined || (result.tags?.results.some((tag) => tag.status === 'failed') ?? false);
}
