import type { RedisClient } from '@cmsg/platform/redis';
import { SendEngineKeys, type SendEngineKeyOptions } from './keys';
import { LuaScript, REDIS_NOW_MS_LUA, integerReply } from './lua-script';

/** 'wait': broadcasts keep their distance. 'record': live sends go now and only mark the time. */
export type PairPacingMode = 'wait' | 'record';

export interface PairReservation {
  channelKey: string;
  contactKey: string;
  intervalMs: number;
  mode: PairPacingMode;
}

/** KEYS: pair last send. ARGV: intervalMs, mode. Returns {retryInMs}. */
const RESERVE_LUA = `${REDIS_NOW_MS_LUA}
local pairKey = KEYS[1]
local intervalMs = tonumber(ARGV[1])
local lastSend = tonumber(redis.call('GET', pairKey) or '-1')
if ARGV[2] == 'wait' and lastSend >= 0 and now - lastSend < intervalMs then
  return {intervalMs - (now - lastSend)}
end
redis.call('SET', pairKey, now, 'PX', intervalMs)
return {0}
`;

const reserveScript = new LuaScript(RESERVE_LUA);

/**
 * The provider refuses (131056) sends to one contact that come too close together: keeps
 * SEND_PAIR_INTERVAL_MS between two sends to a pair, one key per pair that expires with the interval.
 */
export class PairPacer {
  private readonly keys: SendEngineKeys;

  constructor(
    private readonly redis: RedisClient,
    { keyPrefix }: SendEngineKeyOptions = {},
  ) {
    this.keys = new SendEngineKeys(keyPrefix);
  }

  /** 'wait' records nothing and answers retryInMs > 0 while the pair is too recent; otherwise records now. */
  async reserve({ channelKey, contactKey, intervalMs, mode }: PairReservation): Promise<{ retryInMs: number }> {
    if (!Number.isInteger(intervalMs) || intervalMs < 1) throw new Error(`send engine: intervalMs must be a positive integer, got ${intervalMs}`);
    const reply = await reserveScript.run(this.redis, [this.keys.pairLastSend(channelKey, contactKey)], [intervalMs, mode]);
    const [retryInMs] = integerReply(reply, 1);
    return { retryInMs };
  }
}
