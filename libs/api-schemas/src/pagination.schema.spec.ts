import { ContactListQuerySchema } from './contact-list.schema';
import { ListConversationsQuerySchema } from './conversation-list.schema';

describe('list query schemas', () => {
  it('defaults limit to 50 and order to desc', () => {
    expect(ListConversationsQuerySchema.parse({})).toEqual({ limit: 50, order: 'desc' });
    expect(ContactListQuerySchema.parse({})).toEqual({ limit: 50 });
  });

  it.each(['1', '100', '42'])('accepts limit=%s from the query string', (limit) => {
    expect(ContactListQuerySchema.parse({ limit }).limit).toBe(Number(limit));
  });

  it.each(['0', '101', '2.5', 'ten', '', '-1'])('rejects limit=%j', (limit) => {
    expect(ContactListQuerySchema.safeParse({ limit }).success).toBe(false);
  });

  it('accepts a cursor of 1 to 512 characters', () => {
    expect(ContactListQuerySchema.safeParse({ cursor: 'c' }).success).toBe(true);
    expect(ContactListQuerySchema.safeParse({ cursor: 'c'.repeat(512) }).success).toBe(true);
  });

  it.each(['', 'c'.repeat(513)])('rejects a cursor of %#', (cursor) => {
    expect(ContactListQuerySchema.safeParse({ cursor }).success).toBe(false);
  });

  it('takes order asc or desc only', () => {
    expect(ListConversationsQuerySchema.parse({ order: 'asc' }).order).toBe('asc');
    expect(ListConversationsQuerySchema.safeParse({ order: 'newest' }).success).toBe(false);
  });

  it('rejects a repeated parameter (an array from the query parser)', () => {
    expect(ContactListQuerySchema.safeParse({ limit: ['10', '20'] }).success).toBe(false);
  });
});
