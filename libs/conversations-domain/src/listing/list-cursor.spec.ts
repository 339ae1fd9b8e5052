import { ListCursorCodec, CURSOR_TTL_MS, afterPositionFilter } from './list-cursor';

describe('ListCursorCodec', () => {
  let now = 1_700_000_000_000;
  const codec = new ListCursorCodec('a-test-secret-of-enough-length', () => now);

  it('round-trips a position for the same endpoint and order', () => {
    const cursor = codec.encode('conversations', 'desc', { sortAt: 123, id: 'abc' });
    expect(cursor.length).toBeLessThanOrEqual(512);
    expect(codec.decode(cursor, 'conversations', 'desc')).toEqual({ sortAt: 123, id: 'abc' });
  });

  it.each([
    ['another endpoint', (cursor: string) => codec.decode(cursor, 'contacts', 'desc')],
    ['another order', (cursor: string) => codec.decode(cursor, 'conversations', 'asc')],
    ['a tampered payload', (cursor: string) => codec.decode(`x${cursor}`, 'conversations', 'desc')],
    ['a foreign signature', (cursor: string) => new ListCursorCodec('another-secret-of-enough-len').decode(cursor, 'conversations', 'desc')],
    ['garbage', () => codec.decode('not-a-cursor', 'conversations', 'desc')],
  ])('rejects %s with INVALID_CURSOR', (_case, decode) => {
    const cursor = codec.encode('conversations', 'desc', { sortAt: 1, id: 'a' });
    expect(() => decode(cursor)).toThrow(expect.objectContaining({ code: 'INVALID_CURSOR' }));
  });

  it('binds the filters: the same ones (in any key order) decode, others or none do not', () => {
    const filters = { phone: '5215512345678', updated_since: 1_700_000_000_000, username: undefined };
    const cursor = codec.encode('contacts', 'desc', { sortAt: 1, id: 'a' }, filters);
    expect(cursor.length).toBeLessThanOrEqual(512);
    expect(codec.decode(cursor, 'contacts', 'desc', { updated_since: 1_700_000_000_000, phone: '5215512345678' })).toEqual({ sortAt: 1, id: 'a' });
    for (const other of [{}, { phone: '5215512345678' }, { phone: '5215512345679', updated_since: 1_700_000_000_000 }, { ...filters, chat_user_id: 'u1' }]) {
      expect(() => codec.decode(cursor, 'contacts', 'desc', other)).toThrow(expect.objectContaining({ code: 'INVALID_CURSOR' }));
    }
    const unfiltered = codec.encode('contacts', 'desc', { sortAt: 1, id: 'a' });
    expect(() => codec.decode(unfiltered, 'contacts', 'desc', filters)).toThrow(expect.objectContaining({ code: 'INVALID_CURSOR' }));
    expect(codec.decode(unfiltered, 'contacts', 'desc', { username: undefined })).toEqual({ sortAt: 1, id: 'a' });
  });

  it('stays short whatever the filter values', () => {
    expect(codec.encode('contacts', 'desc', { sortAt: 1, id: 'a'.repeat(36) }, { chat_user_id: 'x'.repeat(10_000) }).length).toBeLessThanOrEqual(512);
  });

  it('round-trips the source tier of a merged list', () => {
    const filters = { conversation: 'c1', kinds: 'message,note' };
    const cursor = codec.encode('conversation-timeline', 'asc', { sortAt: 5, id: 'x', tier: 1 }, filters);
    expect(codec.decode(cursor, 'conversation-timeline', 'asc', filters)).toEqual({ sortAt: 5, id: 'x', tier: 1 });
    expect(codec.decode(codec.encode('conversation-timeline', 'asc', { sortAt: 5, id: 'x', tier: 0 }, filters), 'conversation-timeline', 'asc', filters)).toEqual({ sortAt: 5, id: 'x', tier: 0 });
  });

  it('expires after 24 h', () => {
    const cursor = codec.encode('conversations', 'desc', { sortAt: 1, id: 'a' });
    now += CURSOR_TTL_MS + 1;
    expect(() => codec.decode(cursor, 'conversations', 'desc')).toThrow(expect.objectContaining({ code: 'INVALID_CURSOR' }));
  });
});

describe('afterPositionFilter', () => {
  it('continues strictly after the position, tie-broken by id', () => {
    expect(afterPositionFilter('sort_at', 'desc', { sortAt: 0, id: 'm' })).toEqual({
      $or: [{ sort_at: { $lt: new Date(0) } }, { sort_at: new Date(0), _id: { $lt: 'm' } }],
    });
    expect(afterPositionFilter('created_at', 'asc', { sortAt: 0, id: 'm' })).toEqual({
      $or: [{ created_at: { $gt: new Date(0) } }, { created_at: new Date(0), _id: { $gt: 'm' } }],
    });
  });
});
