import type { ListConversationsRequest } from '@cmsg/proto';
import { conversationListFiltersOf, filtersBinding } from './conversation-list-filters';

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

describe('filtersBinding', () => {
  const binding = (fields: Partial<FilterFields>) => filtersBinding(conversationListFiltersOf({ ...none, ...fields }));

  it('is empty without a filter, so unfiltered cursors are as before', () => {
    expect(binding({})).toBe('');
  });

  it('is the same for the same filters however they were written, and differs for any other', () => {
    expect(binding({ tags: ['a', 'b'] })).toBe(binding({ tags: ['b', 'a', 'a'] }));
    expect(binding({ updated_since: '2025-01-31T12:00:00+02:00' })).toBe(binding({ updated_since: '2025-01-31T10:00:00.000Z' }));
    const variants: Partial<FilterFields>[] = [{ tags: ['a'] }, { tags: ['a', 'b'] }, { inbox_status: 'pending' }, { mailbox: 'a' }, { ai_employee: 'a' }, { ai_employee: 'none' }, { window: 'open' }, { is_tester: false }, { is_tester: true }];
    const bindings = variants.map((variant) => binding(variant));
    expect(new Set(bindings).size).toBe(variants.length);
  });
});
