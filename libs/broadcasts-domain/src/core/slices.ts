import type { SendSlice } from './broadcast-ports';

/** Recipients per Kafka message: small enough that replicas share a broadcast evenly. */
export const SLICE_SIZE = 50;

/** Slices covering these seqs (sorted), at most SLICE_SIZE seqs apart each. */
export function slicesOf(broadcast: { business_id: string; _id: string; dispatch_epoch: number }, seqs: readonly number[]): SendSlice[] {
  const slices: SendSlice[] = [];
  let index = 0;
  while (index < seqs.length) {
    const from = seqs[index]!;
    let last = from;
    let count = 0;
    while (index < seqs.length && seqs[index]! < from + SLICE_SIZE && count < SLICE_SIZE) {
      last = seqs[index]!;
      index += 1;
      count += 1;
    }
    slices.push({ business_id: broadcast.business_id, broadcast_id: broadcast._id, from_seq: from, to_seq: last + 1, epoch: broadcast.dispatch_epoch });
  }
  return slices;
}
