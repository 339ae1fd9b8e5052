import { z } from 'zod';
import { seedIds, stableUuid } from './seed-ids';

describe('stable seed ids', () => {
  it('derives the same RFC 9562 version 5 uuid from the same name', () => {
    const id = stableUuid('business:demo');
    expect(stableUuid('business:demo')).toBe(id);
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(z.uuid().safeParse(id).success).toBe(true);
  });

  it('separates kinds and inputs', () => {
    const ids = [seedIds.business('demo'), seedIds.business('demo2'), seedIds.conversation('demo'), seedIds.message('c', 0), seedIds.message('c', 1), seedIds.webhook('b', 'https://x')];
    expect(new Set(ids).size).toBe(ids.length);
  });
});
