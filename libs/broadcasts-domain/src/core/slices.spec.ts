import { SLICE_SIZE, slicesOf } from './slices';

const broadcast = { business_id: 'b1', _id: 'bc1', dispatch_epoch: 3 };
const range = (from: number, to: number) => Array.from({ length: to - from }, (_, index) => from + index);

describe('slicesOf', () => {
  it('answers no slice for no pending seq', () => {
    expect(slicesOf(broadcast, [])).toEqual([]);
  });

  it('cuts consecutive seqs into slices of SLICE_SIZE, the last one shorter, each of the broadcast and its epoch', () => {
    expect(slicesOf(broadcast, range(0, 2 * SLICE_SIZE + 20))).toEqual([
      { business_id: 'b1', broadcast_id: 'bc1', from_seq: 0, to_seq: 50, epoch: 3 },
      { business_id: 'b1', broadcast_id: 'bc1', from_seq: 50, to_seq: 100, epoch: 3 },
      { business_id: 'b1', broadcast_id: 'bc1', from_seq: 100, to_seq: 120, epoch: 3 },
    ]);
  });

  it('starts each slice at a pending seq and spans at most SLICE_SIZE seqs, so scattered seqs never make wide slices', () => {
    const slices = slicesOf(broadcast, [3, 4, 52, 53, 60, 400, 1000]);
    expect(slices.map(({ from_seq, to_seq }) => [from_seq, to_seq])).toEqual([
      [3, 53],
      [53, 61],
      [400, 401],
      [1000, 1001],
    ]);
  });

  it('covers every seq exactly once, whatever the gaps', () => {
    const seqs = [...range(0, 37), ...range(90, 260), 999, ...range(1200, 1251)];
    const slices = slicesOf(broadcast, seqs);
    const covered = seqs.map((seq) => slices.filter((slice) => seq >= slice.from_seq && seq < slice.to_seq).length);
    expect(covered.every((count) => count === 1)).toBe(true);
    for (const slice of slices) {
      expect(slice.to_seq - slice.from_seq).toBeLessThanOrEqual(SLICE_SIZE);
      expect(seqs).toContain(slice.from_seq);
      expect(seqs).toContain(slice.to_seq - 1);
    }
  });
});
