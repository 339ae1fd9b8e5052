export const DEFAULT_SEND_ENGINE_KEY_PREFIX = 'send';

export interface SendEngineKeyOptions {
  /** Tests give each run its own prefix so they never see each other's state. */
  keyPrefix?: string;
}

/**
 * Every key the send engine writes, in one place so the budget and the back-off agree; the keys of a
 * channel share its `{channel}` hash tag so one script can touch them all on a Redis Cluster too.
 */
export class SendEngineKeys {
  constructor(private readonly prefix: string = DEFAULT_SEND_ENGINE_KEY_PREFIX) {}

  /** Sliding log of the channel's grant times (sorted set, score = ms). */
  rateLog(channelKey: string): string {
    return `${this.channel(channelKey)}:rate`;
  }

  /** Live sends waiting for the channel's next slot (sorted set, score = expiry ms). */
  liveWaiters(channelKey: string): string {
    return `${this.channel(channelKey)}:live-waiters`;
  }

  /** A broadcast's own sliding log; under the channel's tag, since a broadcast sends on one channel. */
  broadcastRateLog(channelKey: string, broadcastKey: string): string {
    return `${this.channel(channelKey)}:broadcast:${broadcastKey}:rate`;
  }

  /** Redis ms until which the channel makes no call (written by ChannelBackOff, read by ChannelRateBudget). */
  backOffUntil(channelKey: string): string {
    return `${this.channel(channelKey)}:back-off:until`;
  }

  /** How many throttles in a row the channel has had; expires a while after the last one. */
  backOffLevel(channelKey: string): string {
    return `${this.channel(channelKey)}:back-off:level`;
  }

  /** Times the provider accepted a call of the channel in the last second (sorted set, score = ms). */
  acceptedLog(channelKey: string): string {
    return `${this.channel(channelKey)}:accepted`;
  }

  /**
   * The rate the provider was found to take when it answered 130429 (hash: rate, at = Redis ms it
   * was learned); the budget grants no more than it, rising again after a while (ChannelRateBudget).
   */
  learnedRate(channelKey: string): string {
    return `${this.channel(channelKey)}:learned-rate`;
  }

  /** The throttle burst under way: the best rate learned from it so far. */
  throttleBurst(channelKey: string): string {
    return `${this.channel(channelKey)}:back-off:burst`;
  }

  /** Redis ms of the last send to one contact on the channel. */
  pairLastSend(channelKey: string, contactKey: string): string {
    return `${this.channel(channelKey)}:pair:${contactKey}`;
  }

  /** Contacts reached by business-initiated templates (sorted set, score = ms the unit was taken). */
  messagingLimit(channelKey: string): string {
    return `${this.channel(channelKey)}:messaging-limit`;
  }

  /** One attempt's call fence, raised before its claim until right before its call (SendCallFence): while it stands, the provider was not called. */
  callFence(channelKey: string, fenceId: string): string {
    return `${this.channel(channelKey)}:uncalled:${fenceId}`;
  }

  /** Present while the sending process renews it (SenderHeartbeat). */
  senderHeartbeat(processId: string): string {
    return `${this.prefix}:sender:${processId}`;
  }

  private channel(channelKey: string): string {
    return `${this.prefix}:{${channelKey}}`;
  }
}
