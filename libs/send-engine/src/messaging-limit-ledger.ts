import type { RedisClient } from '@cmsg/platform/redis';
import { SendEngineKeys, type SendEngineKeyOptions } from './keys';
import { LuaScript, REDIS_NOW_MS_LUA, integerReply } from './lua-script';

export interface MessagingLimitLedgerOptions extends SendEngineKeyOptions {
  /** The provider's moving 24 h; tests shorten it. */
  windowMs?: number;
}

/** `limit: null` is the channel's `unlimited`: nothing is refused, units are still recorded. */
export interface MessagingUnitRequest {
  channelKey: string;
  contactKey: string;
  limit: number | null;
}

export type MessagingUnitTaken =
  /** `token` releases exactly this unit (see release). */
  | { ok: true; newUnit: true; token: string }
  /** The contact was reached within the window: no new unit, nothing to release. */
  | { ok: true; newUnit: false }
  | { ok: false; retryAfterMs: number };

/**
 * KEYS: ledger. ARGV: contactKey, limit (-1 = unlimited), windowMs.
 * Returns {1, newUnit, takenAtMs} or {0, retryAfterMs, 0}.
 */
const TAKE_LUA = `${REDIS_NOW_MS_LUA}
local ledgerKey = KEYS[1]
local contactKey = ARGV[1]
local limit = tonumber(ARGV[2])
local windowMs = tonumber(ARGV[3])
redis.call('ZREMRANGEBYSCORE', ledgerKey, '-inf', now - windowMs)
if redis.call('ZSCORE', ledgerKey, contactKey) then return {1, 0, 0} end
local used = redis.call('ZCARD', ledgerKey)
if limit >= 0 and used >= limit then
  if limit == 0 then return {0, windowMs, 0} end
  local entry = redis.call('ZRANGE', ledgerKey, used - limit, used - limit, 'WITHSCORES')
  return {0, math.max(1, tonumber(entry[2]) + windowMs - now), 0}
end
redis.call('ZADD', ledgerKey, now, contactKey)
redis.call('PEXPIRE', ledgerKey, windowMs)
return {1, 1, now}
`;

/** KEYS: ledger. ARGV: contactKey, token (the ms the unit was taken). Returns {released}. */
const RELEASE_LUA = `
local takenAt = redis.call('ZSCORE', KEYS[1], ARGV[1])
if takenAt and tonumber(takenAt) == tonumber(ARGV[2]) then
  redis.call('ZREM', KEYS[1], ARGV[1])
  return {1}
end
return {0}
`;

/** KEYS: ledger. ARGV: windowMs. Returns {units used in the window}. */
const USED_LUA = `${REDIS_NOW_MS_LUA}
return {redis.call('ZCOUNT', KEYS[1], '(' .. (now - tonumber(ARGV[1])), '+inf')}
`;

const takeScript = new LuaScript(TAKE_LUA);
const releaseScript = new LuaScript(RELEASE_LUA);
const usedScript = new LuaScript(USED_LUA);

/**
 * The channel's messaging limit: unique contacts reached by business-initiated templates in a
 * moving 24 h, one sorted set per channel (member = contact, score = when its unit was taken).
 * A contact reached again within the window keeps its first time, as the provider counts it: its
 * unit frees 24 h after it was taken, however often the contact is written to meanwhile.
 */
export class MessagingLimitLedger {
  private readonly keys: SendEngineKeys;
  private readonly windowMs: number;

  constructor(
    private readonly redis: RedisClient,
    { keyPrefix, windowMs = 24 * 60 * 60 * 1000 }: MessagingLimitLedgerOptions = {},
  ) {
    this.keys = new SendEngineKeys(keyPrefix);
    this.windowMs = windowMs;
  }

  /** Takes a unit for a contact not reached within the window, or says when the next unit frees. */
  async take({ channelKey, contactKey, limit }: MessagingUnitRequest): Promise<MessagingUnitTaken> {
    assertLimit(limit);
    const reply = await takeScript.run(this.redis, [this.keys.messagingLimit(channelKey)], [contactKey, limit ?? -1, this.windowMs]);
    const [ok, value, takenAtMs] = integerReply(reply, 3);
    if (ok === 0) return { ok: false, retryAfterMs: value };
    return value === 1 ? { ok: true, newUnit: true, token: String(takenAtMs) } : { ok: true, newUnit: false };
  }

  /** Units left in the window; null when the channel is unlimited. */
  async remaining({ channelKey, limit }: { channelKey: string; limit: number | null }): Promise<number | null> {
    assertLimit(limit);
    if (limit === null) return null;
    const [used] = integerReply(await usedScript.run(this.redis, [this.keys.messagingLimit(channelKey)], [this.windowMs]), 1);
    return Math.max(0, limit - used);
  }

  /**
   * Gives back a unit the provider refused before it counted. Only the unit that take added goes:
   * if the contact's entry has since aged out and been taken again, the newer unit stays.
   */
  async release({ channelKey, contactKey, token }: { channelKey: string; contactKey: string; token: string }): Promise<boolean> {
    const [released] = integerReply(await releaseScript.run(this.redis, [this.keys.messagingLimit(channelKey)], [contactKey, token]), 1);
    return released === 1;
  }
}

function assertLimit(limit: number | null): void {
  if (limit !== null && (!Number.isInteger(limit) || limit < 0)) {
    throw new Error(`send engine: messaging limit must be a non-negative integer or null, got ${limit}`);
  }
}
