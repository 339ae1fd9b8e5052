import { isDuplicateKeyError, lostInsertPositions } from './duplicate-key';

describe('duplicate key errors', () => {
  it('recognises a duplicate key by its code', () => {
    expect(isDuplicateKeyError({ code: 11000 })).toBe(true);
    expect(isDuplicateKeyError({ code: 121 })).toBe(false);
    expect(isDuplicateKeyError(null)).toBe(false);
  });

  it('answers the positions of an unordered insert that lost to existing keys', () => {
    expect(lostInsertPositions({ writeErrors: [{ index: 3, code: 11000 }, { index: 0, code: 11000 }] })).toEqual(new Set([0, 3]));
    expect(lostInsertPositions({ writeErrors: { index: 2, code: 11000 } })).toEqual(new Set([2]));
  });

  it('rethrows any other failure: what was written is then unknown', () => {
    const validation = { writeErrors: [{ index: 1, code: 11000 }, { index: 2, code: 121 }] };
    expect(() => lostInsertPositions(validation)).toThrow(expect.objectContaining(validation));
    const network = new Error('connection closed');
    expect(() => lostInsertPositions(network)).toThrow(network);
    expect(() => lostInsertPositions({ writeErrors: [{ code: 11000 }] })).toThrow();
  });
});
