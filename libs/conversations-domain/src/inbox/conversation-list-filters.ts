import { CatalogError } from '@cmsg/errors';
import type { BusinessScope, ConversationListFilter } from '@cmsg/dal';
import type { ListConversationsRequest } from '@cmsg/proto';
import { type BusinessDirectory, clockOf, loadBusiness } from '../conversation/business-clock';
import type { CursorFilters } from '../listing/list-cursor';
import { MESSAGING_WINDOW_MS, conversationNow } from '../conversation/messaging-window';
import { parseUpdatedSince } from '../listing/updated-since';

/** The filters of GET /conversations (CONTRACT 9.1) as asked: each optional, combined with AND. */
export interface ConversationListFilters {
  inboxStatus?: 'pending' | 'resolved';
  /** Every one of these tags (sorted, each once). */
  tags: string[];
  mailbox?: string;
  /** An AI employee uuid, or `none`. */
  aiEmployee?: string;
  window?: 'open' | 'closed';
  isTester?: boolean;
  updatedSince?: Date;
}

/** The filters of a ListConversations call, checked (the gateway checks them first; gRPC callers meet the same rules). */
export function conversationListFiltersOf(request: Pick<ListConversationsRequest, 'inbox_status' | 'tags' | 'mailbox' | 'ai_employee' | 'window' | 'is_tester' | 'updated_since'>): ConversationListFilters {
  const oneOf = <Value extends string>(name: string, value: string | undefined, allowed: readonly Value[]): Value | undefined => {
    if (value === undefined) return undefined;
    if (!(allowed as readonly string[]).includes(value)) throw invalid(`${name} must be one of ${allowed.join(', ')}`);
    return value as Value;
  };
  const updatedSince = parseUpdatedSince(request.updated_since);
  return {
    inboxStatus: oneOf('inbox_status', request.inbox_status, ['pending', 'resolved']),
    tags: [...new Set(request.tags)].sort(),
    mailbox: request.mailbox,
    aiEmployee: request.ai_employee,
    window: oneOf('window', request.window, ['open', 'closed']),
    isTester: request.is_tester,
    updatedSince,
  };
}

/** The filters as a list cursor is bound to them: normalised values, none for an unfiltered list. */
export function cursorFiltersOf(filters: ConversationListFilters): CursorFilters {
  return {
    inbox_status: filters.inboxStatus,
    tags: filters.tags.length > 0 ? filters.tags.join(',') : undefined,
    mailbox: filters.mailbox,
    ai_employee: filters.aiEmployee,
    window: filters.window,
    is_tester: filters.isTester,
    updated_since: filters.updatedSince?.getTime(),
  };
}

/**
 * The filters as the list query applies them. The window is open while the customer's last message
 * is less than 24 h old at the conversation's own now: the real time, or the business's tester
 * clock for tester conversations (CONTRACT 3), so the business is read only for a window filter.
 */
export async function storedListFilter(businesses: BusinessDirectory, scope: BusinessScope, filters: ConversationListFilters, realNow: number): Promise<ConversationListFilter> {
  const stored: ConversationListFilter = {
    ...(filters.inboxStatus ? { inboxStatus: filters.inboxStatus } : {}),
    ...(filters.tags.length > 0 ? { tagIds: filters.tags } : {}),
    ...(filters.mailbox !== undefined ? { mailboxId: filters.mailbox } : {}),
    ...(filters.aiEmployee !== undefined ? { aiEmployeeId: filters.aiEmployee === 'none' ? null : filters.aiEmployee } : {}),
    ...(filters.isTester !== undefined ? { isTester: filters.isTester } : {}),
    ...(filters.updatedSince ? { updatedSince: filters.updatedSince } : {}),
  };
  if (filters.window) {
    const testerOffsetMs = clockOf(await loadBusiness(businesses, scope)).testerClockOffsetMs;
    stored.window = {
      open: filters.window === 'open',
      since: new Date(realNow - MESSAGING_WINDOW_MS),
      testerSince: new Date(conversationNow(true, testerOffsetMs, realNow) - MESSAGING_WINDOW_MS),
    };
  }
  return stored;
}

function invalid(problem: string): CatalogError {
  return new CatalogError('INVALID_REQUEST', `Invalid request: ${problem}.`);
}
