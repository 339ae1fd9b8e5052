import type { RedisClient } from '@cmsg/platform/redis';
import { SendEngineKeys, type SendEngineKeyOptions } from './keys';

export interface SendCallFenceOptions extends SendEngineKeyOptions {
  /** A fence left standing by a send that stopped goes after this (the send's lease: sendLeaseMs). */
  ttlMs: number;
}

/** Names one attempt's fence: its channel (the key's hash tag, beside the channel's rate log) and the attempt's fence id. */
export interface CallFenceKey {
  channelKey: string;
  /**
   * Fresh for each attempt of a send and stored with its claim: another attempt of the same send
   * raises a fence of its own, so it never stands in for the claimant's.
   */
  fenceId: string;
}

/**
 * What a recovery knows of a send cut off by a crash between its claim and its provider call
 * (docs/messaging.md, "Exactly once"). The sender raises the fence before its claim, which records
 * the fence's id, so every claim has its fence standing from its first moment; the commit of its
 * rate slot (ChannelRateBudget.commit) passes it (takes it down) in the same step, right before
 * the call, after its pacing; a send whose fence is no longer there does not call. A recovery that
 * takes the claim's fence down first has proven the call never happened and never will: the send
 * can be made again. A fence that is missing (passed by the sender, expired, or lost with Redis's
 * data) proves nothing: the outcome stays unknown.
 */
export class SendCallFence {
  private readonly keys: SendEngineKeys;

  constructor(
    private readonly redis: RedisClient,
    private readonly options: SendCallFenceOptions,
  ) {
    this.keys = new SendEngineKeys(options.keyPrefix);
  }

  async raise({ channelKey, fenceId }: CallFenceKey): Promise<void> {
    await this.redis.set(this.keys.callFence(channelKey, fenceId), '1', { PX: this.options.ttlMs });
  }

  /** A recovery: true when this took the fence down, so the send never reached its provider call, and now never will. */
  async takeDown({ channelKey, fenceId }: CallFenceKey): Promise<boolean> {
    return (await this.redis.del(this.keys.callFence(channelKey, fenceId))) === 1;
  }
}
