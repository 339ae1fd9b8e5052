import type { ListConversationsRequest } from '@cmsg/proto';
import { conversationListFiltersOf, cursorFiltersOf } from './conversation-list-filters';

type FilterFields = Pick<ListConversationsRequest, 'inbox_status' | 'tags' | 'mailbox' | 'ai_employee' | 'window' | 'is_tester' | 'updated_since'>;
const none: FilterFields = { inbox_status: undefined, tags: [], mailbox: undefined, ai_employee: undefined, window: undefined, is_tester: undefined, updated_since: undefined };

describe('conversationListFiltersOf', () => {
  it('reads the filters of a request, tags each once in one order', () => {
    expect(conversationListFiltersOf({ ...none, inbox_status: 'pending', tags: ['b', 'a', 'b'], ai_employee: 'none', window: 'closed', is_tester: false, updated_since: '2025-01-31T12:00:00+02:00' })).toEqual({
      inboxStatus: 'pending',
      tags: ['a', 'b'],
      mailbox: undefined,
      aiEmployee: 'none',
      window: 'closed',
      isTester: false,
      updatedSince: new Date('2025-01-31T10:00:00.000Z'),
    });
  });

  it.each([
    ['inbox_status', { inbox_status: 'open' }],
    ['window', { window: 'ajar' }],
    ['updated_since', { updated_since: 'yesterday' }],
  ])('refuses a bad %s with INVALID_REQUEST', (_name, fields) => {
    expect(() => conversationListFiltersOf({ ...none, ...fields })).toThrow(expect.objectContaining({ code: 'INVALID_REQUEST' }));
  });
});

describe('cursorFiltersOf', () => {
  const bound = (fields: Partial<FilterFields>) => cursorFiltersOf(conversationListFiltersOf({ ...none, ...fields }));
  const set = (fields: Partial<FilterFields>) => Object.entries(bound(fields)).filter(([, value]) => value !== undefined);

  it('binds nothing without a filter, so unfiltered cursors are as before', () => {
    expect(set({})).toEqual([]);
  });

  it('is the same for the same filters however they were written, and differs for any other', () => {
    expect(bound({ tags: ['a', 'b'] })).toEqual(bound({ tags: ['b', 'a', 'a'] }));
    expect(bound({ updated_since: '2025-01-31T12:00:00+02:00' })).toEqual(bound({ updated_since: '2025-01-31T10:00:00.000Z' }));
    const variants: Partial<FilterFields>[] = [{ tags: ['a'] }, { tags: ['a', 'b'] }, { inbox_status: 'pending' }, { mailbox: 'a' }, { ai_employee: 'a' }, { ai_employee: 'none' }, { window: 'open' }, { is_tester: false }, { is_tester: true }];
    const bindings = variants.map((variant) => JSON.stringify(set(variant)));
    expect(new Set(bindings).size).toBe(variants.length);
  });
});
