import type { BroadcastFreezeCheckpoint } from '@cmsg/dal';
import type { FrozenRecipient } from './classify-contact';

/** The audience members of one freeze step, in seq order, and the checkpoint just past them. */
export interface FreezeBatch {
  recipients: FrozenRecipient[];
  checkpoint(nextSeq: number): BroadcastFreezeCheckpoint;
}
