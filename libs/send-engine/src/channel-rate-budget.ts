import type { RedisClient } from '@cmsg/platform/redis';
import { randomUUID } from 'node:crypto';
import { SendEngineKeys, type SendEngineKeyOptions } from './keys';
import { LuaScript, REDIS_NOW_MS_LUA, integerReply } from './lua-script';
import { SlotWaitLines } from './slot-wait-lines';
import type { SlotGrant, SlotRequest, SlotsWaited, WaitForSlotsOptions } from './wait-for-slots';

export interface ChannelRateBudgetOptions extends SendEngineKeyOptions {
  /** Counted on top of the 1,000 ms window so network jitter between grant and provider never puts
   * more than perSecond calls in a provider-side second. */
  marginMs?: number;
  /** A live waiter that stops asking (crash, abort) stops holding broadcasts back after this. */
  liveWaiterTtlMs?: number;
  /** Broadcasts refused for a waiting live send ask again this soon: the live send takes one slot only. */
  yieldToLiveRetryMs?: number;
  /** A rate learned from a throttle burst (ChannelBackOff) is kept this long as it is... */
  learnedHoldMs?: number;
  /** ...then rises by one per second every this many ms, until the provider throttles again or it reaches the channel's rate. */
  learnedRiseEveryMs?: number;
  /**
   * No more than a spreadMs share of the rate (perSecond x spreadMs / 1,000, at least 1) is granted in
   * any spreadMs: a second's calls leave in small groups across it, not in one burst whose calls
   * the network and the provider stamp unevenly. 1,000 spreads nothing.
   */
  spreadMs?: number;
}

const WINDOW_MS = 1000;

/** The sliding logs' arithmetic, shared by the acquire and commit scripts (they set `now` and `windowMs`). */
const WINDOW_LOG_LUA = `
-- Entries scored at or before now - windowMs have left the window.
local function used(key)
  redis.call('ZREMRANGEBYSCORE', key, '-inf', now - windowMs)
  return redis.call('ZCARD', key)
end

-- Time until the log holds fewer than limit entries: the entry at index (count - limit) must leave.
local function freesInMs(key, count, limit)
  local entry = redis.call('ZRANGE', key, count - limit, count - limit, 'WITHSCORES')
  if entry[2] == nil then return 1 end
  return math.max(1, tonumber(entry[2]) + windowMs - now)
end
`;

/**
 * The spread of the channel's log (the scripts set spreadMs, and perSecond before it runs): room in
 * the last spreadMs, and the time until there is some.
 */
const SPREAD_LUA = `
local spreadLimit = math.max(1, math.ceil(perSecond * spreadMs / 1000))
local function spreadRoom(key)
  return spreadLimit - redis.call('ZCOUNT', key, '(' .. (now - spreadMs), '+inf')
end
local function spreadFreesInMs(key)
  local count = redis.call('ZCARD', key)
  local entry = redis.call('ZRANGE', key, count - spreadLimit, count - spreadLimit, 'WITHSCORES')
  if entry[2] == nil then return 1 end
  return math.max(1, tonumber(entry[2]) + spreadMs - now)
end
`;

/**
 * What the provider took in its last throttle burst (ChannelBackOff), kept for a while, then probed
 * upwards: caps perSecond (the scripts set learnedKey, learnedHoldMs and learnedRiseEveryMs).
 */
const LEARNED_RATE_LUA = `
local learned = redis.call('HMGET', learnedKey, 'rate', 'at')
if learned[1] then
  local rises = math.max(0, math.floor((now - tonumber(learned[2]) - learnedHoldMs) / learnedRiseEveryMs))
  perSecond = math.min(perSecond, tonumber(learned[1]) + rises)
end
`;

/**
 * KEYS: rate log, live waiters, back-off until, learned rate, [broadcast rate log].
 * ARGV: perSecond, priority, count, windowMs, waiterId ('' = none), waiterTtlMs, broadcastPerSecond,
 * slotId (log members are slotId:1..granted), yieldToLiveRetryMs, learnedHoldMs, learnedRiseEveryMs,
 * spreadMs.
 * Returns {granted, retryInMs, now}: the grant's time is Redis's.
 */
const ACQUIRE_LUA = `${REDIS_NOW_MS_LUA}
local rateKey, waitersKey, untilKey, learnedKey, broadcastKey = KEYS[1], KEYS[2], KEYS[3], KEYS[4], KEYS[5]
local perSecond = tonumber(ARGV[1])
local live = ARGV[2] == 'live'
local count = tonumber(ARGV[3])
local windowMs = tonumber(ARGV[4])
local waiterId = ARGV[5]
local waiterTtlMs = tonumber(ARGV[6])
local broadcastPerSecond = tonumber(ARGV[7])
local slotId = ARGV[8]
local yieldToLiveRetryMs = tonumber(ARGV[9])
local learnedHoldMs = tonumber(ARGV[10])
local learnedRiseEveryMs = tonumber(ARGV[11])
local spreadMs = tonumber(ARGV[12])
${WINDOW_LOG_LUA}
local function extendExpiry(key, ms)
  if redis.call('PTTL', key) < ms then redis.call('PEXPIRE', key, ms) end
end

local function waitAsLive(expiresAt)
  if live and waiterId ~= '' then
    redis.call('ZADD', waitersKey, expiresAt, waiterId)
    extendExpiry(waitersKey, expiresAt - now)
  end
end

local function record(key, granted)
  local entries = {}
  for i = 1, granted do
    entries[#entries + 1] = now
    entries[#entries + 1] = slotId .. ':' .. i
  end
  redis.call('ZADD', key, unpack(entries))
  redis.call('PEXPIRE', key, windowMs + 1000)
end

redis.call('ZREMRANGEBYSCORE', waitersKey, '-inf', now)

local backOffUntil = tonumber(redis.call('GET', untilKey) or '0')
if backOffUntil > now then
  -- Still first in line when the back-off ends.
  waitAsLive(backOffUntil + waiterTtlMs)
  return {0, backOffUntil - now, now}
end

${LEARNED_RATE_LUA}
${SPREAD_LUA}
local channelUsed = used(rateKey)
local windowRoom = perSecond - channelUsed
local room = math.min(windowRoom, spreadRoom(rateKey))
-- When the channel has room again: the window first, then the spread.
local function channelFreesInMs()
  if windowRoom <= 0 then return freesInMs(rateKey, channelUsed, perSecond) end
  return spreadFreesInMs(rateKey)
end

if live then
  if room <= 0 then
    waitAsLive(now + waiterTtlMs)
    return {0, channelFreesInMs(), now}
  end
  local granted = math.min(count, room)
  record(rateKey, granted)
  if waiterId ~= '' then redis.call('ZREM', waitersKey, waiterId) end
  return {granted, 0, now}
end

if redis.call('ZCARD', waitersKey) > 0 then
  if room <= 0 then return {0, math.max(yieldToLiveRetryMs, channelFreesInMs()), now} end
  return {0, yieldToLiveRetryMs, now}
end

local granted = math.min(count, room)
local retryInMs = 0
if room <= 0 then retryInMs = channelFreesInMs() end
if broadcastKey then
  local broadcastUsed = used(broadcastKey)
  local broadcastRoom = broadcastPerSecond - broadcastUsed
  if broadcastRoom <= 0 then
    retryInMs = math.max(retryInMs, freesInMs(broadcastKey, broadcastUsed, broadcastPerSecond))
  end
  granted = math.min(granted, broadcastRoom)
end
if granted <= 0 then return {0, retryInMs, now} end
record(rateKey, granted)
if broadcastKey then record(broadcastKey, granted) end
return {granted, 0, now}
`;

const acquireScript = new LuaScript(ACQUIRE_LUA);

/**
 * KEYS: rate log, back-off until, learned rate, call fence, [broadcast rate log].
 * ARGV: slot member, perSecond, windowMs, broadcastPerSecond, learnedHoldMs, learnedRiseEveryMs,
 * passFence ('1' = the fence must stand and goes down with the commit), spreadMs.
 * Returns {outcome, retryInMs, now}: 1 = call now (the slot stamped now, the fence passed); 0 = no
 * room now, ask for a new slot in retryInMs (the slot given back, the fence still up); -1 = the
 * fence was gone (the slot given back).
 */
const COMMIT_LUA = `${REDIS_NOW_MS_LUA}
local rateKey, untilKey, learnedKey, fenceKey, broadcastKey = KEYS[1], KEYS[2], KEYS[3], KEYS[4], KEYS[5]
local member = ARGV[1]
local perSecond = tonumber(ARGV[2])
local windowMs = tonumber(ARGV[3])
local broadcastPerSecond = tonumber(ARGV[4])
local learnedHoldMs = tonumber(ARGV[5])
local learnedRiseEveryMs = tonumber(ARGV[6])
local passFence = ARGV[7] == '1'
local spreadMs = tonumber(ARGV[8])
${WINDOW_LOG_LUA}
local function giveBack()
  redis.call('ZREM', rateKey, member)
  if broadcastKey then redis.call('ZREM', broadcastKey, member) end
end

if passFence and redis.call('EXISTS', fenceKey) == 0 then
  giveBack()
  return {-1, 0, now}
end
local backOffUntil = tonumber(redis.call('GET', untilKey) or '0')
if backOffUntil > now then
  giveBack()
  return {0, backOffUntil - now, now}
end
${LEARNED_RATE_LUA}
${SPREAD_LUA}
giveBack()
local channelUsed = used(rateKey)
if channelUsed >= perSecond then return {0, freesInMs(rateKey, channelUsed, perSecond), now} end
if spreadRoom(rateKey) <= 0 then return {0, spreadFreesInMs(rateKey), now} end
if broadcastKey then
  local broadcastUsed = used(broadcastKey)
  if broadcastUsed >= broadcastPerSecond then return {0, freesInMs(broadcastKey, broadcastUsed, broadcastPerSecond), now} end
  redis.call('ZADD', broadcastKey, now, member)
  redis.call('PEXPIRE', broadcastKey, windowMs + 1000)
end
redis.call('ZADD', rateKey, now, member)
redis.call('PEXPIRE', rateKey, windowMs + 1000)
if passFence then redis.call('DEL', fenceKey) end
return {1, 0, now}
`;

const commitScript = new LuaScript(COMMIT_LUA);

/** A slot granted by `acquire` (a grant of one), committed right before its call. */
export interface SlotCommitRequest extends Pick<SlotRequest, 'channelKey' | 'perSecond' | 'broadcastKey' | 'broadcastPerSecond'> {
  slotId: string;
  /** The id of the send's call fence (SendCallFence): it must still stand, and goes down with the commit. */
  fenceId?: string;
}

export type SlotCommitted =
  /** Call now: the slot is stamped with this moment (atMs, Redis ms), and the fence (if any) is passed. */
  | { outcome: 'call'; atMs: number }
  /** No room at this moment (the slot waited past its window, a back-off began, the rate fell): the slot is given back; ask for another in retryInMs. */
  | { outcome: 'wait'; retryInMs: number }
  /** The fence was gone: a recovery took the send over; the slot is given back and nothing may be called. */
  | { outcome: 'fence-gone' };

/**
 * The channel's max_messages_per_second shared by every replica: a sliding log of grant times in
 * Redis, where live sends go before broadcast sends and a back-off stops everything. After a
 * throttle burst it grants no more than the rate ChannelBackOff learned from it, held for
 * `learnedHoldMs`, then one more per second every `learnedRiseEveryMs` (the provider's tier may have
 * risen): the channel settles just under what the provider takes instead of bursting into it.
 */
export class ChannelRateBudget {
  private readonly keys: SendEngineKeys;
  private readonly windowMs: number;
  private readonly liveWaiterTtlMs: number;
  private readonly yieldToLiveRetryMs: number;
  private readonly learnedHoldMs: number;
  private readonly learnedRiseEveryMs: number;
  private readonly spreadMs: number;
  private readonly lines = new SlotWaitLines((attempt) => this.acquire(attempt));

  constructor(
    private readonly redis: RedisClient,
    { keyPrefix, marginMs = 25, liveWaiterTtlMs = 1500, yieldToLiveRetryMs = 10, learnedHoldMs = 60_000, learnedRiseEveryMs = 2_000, spreadMs = 100 }: ChannelRateBudgetOptions = {},
  ) {
    assertPositiveInteger('spreadMs', spreadMs);
    this.keys = new SendEngineKeys(keyPrefix);
    this.windowMs = WINDOW_MS + marginMs;
    this.liveWaiterTtlMs = liveWaiterTtlMs;
    this.yieldToLiveRetryMs = yieldToLiveRetryMs;
    this.learnedHoldMs = learnedHoldMs;
    this.learnedRiseEveryMs = learnedRiseEveryMs;
    this.spreadMs = Math.min(spreadMs, WINDOW_MS);
  }

  /** One atomic attempt: grants up to `count` slots now, or says when to ask again. */
  async acquire(request: SlotRequest): Promise<SlotGrant> {
    const { channelKey, perSecond, priority, count = 1, broadcastKey, broadcastPerSecond, waiterId } = request;
    assertPositiveInteger('perSecond', perSecond);
    assertPositiveInteger('count', count);
    if (broadcastKey !== undefined) assertPositiveInteger('broadcastPerSecond', broadcastPerSecond);
    const keys = [this.keys.rateLog(channelKey), this.keys.liveWaiters(channelKey), this.keys.backOffUntil(channelKey), this.keys.learnedRate(channelKey)];
    if (broadcastKey !== undefined) keys.push(this.keys.broadcastRateLog(channelKey, broadcastKey));
    const slotId = randomUUID();
    const reply = await acquireScript.run(this.redis, keys, [
      perSecond,
      priority,
      count,
      this.windowMs,
      priority === 'live' ? (waiterId ?? '') : '',
      this.liveWaiterTtlMs,
      broadcastPerSecond ?? 0,
      slotId,
      this.yieldToLiveRetryMs,
      this.learnedHoldMs,
      this.learnedRiseEveryMs,
      this.spreadMs,
    ]);
    const [granted, retryInMs, now] = integerReply(reply, 3);
    return granted > 0 ? { granted, retryInMs, grantedAtMs: now, slotId } : { granted, retryInMs };
  }

  /**
   * Right before the call of a slot granted earlier: stamps the slot with this moment, so that the
   * time the send spent between its grant and its call (the broadcast admission, a slow event loop)
   * never puts more than perSecond calls in one provider-side second; and passes the send's call
   * fence in the same step. A slot that can no longer be stamped within the window is given back.
   */
  async commit(request: SlotCommitRequest): Promise<SlotCommitted> {
    const { channelKey, perSecond, broadcastKey, broadcastPerSecond, slotId, fenceId } = request;
    assertPositiveInteger('perSecond', perSecond);
    if (broadcastKey !== undefined) assertPositiveInteger('broadcastPerSecond', broadcastPerSecond);
    const keys = [this.keys.rateLog(channelKey), this.keys.backOffUntil(channelKey), this.keys.learnedRate(channelKey), this.keys.callFence(channelKey, fenceId ?? '')];
    if (broadcastKey !== undefined) keys.push(this.keys.broadcastRateLog(channelKey, broadcastKey));
    const reply = await commitScript.run(this.redis, keys, [
      slotMember(slotId),
      perSecond,
      this.windowMs,
      broadcastPerSecond ?? 0,
      this.learnedHoldMs,
      this.learnedRiseEveryMs,
      fenceId === undefined ? 0 : 1,
      this.spreadMs,
    ]);
    const [outcome, retryInMs, now] = integerReply(reply, 3);
    if (outcome === 1) return { outcome: 'call', atMs: now };
    if (outcome === -1) return { outcome: 'fence-gone' };
    return { outcome: 'wait', retryInMs };
  }

  /**
   * Waits until at least one slot is granted: a live request under one waiter id throughout; a
   * broadcast request in this process's line for the same slots (SlotWaitLines).
   */
  waitForSlots(request: Omit<SlotRequest, 'waiterId'>, options?: WaitForSlotsOptions): Promise<SlotsWaited> {
    return this.lines.waitForSlots(request, options);
  }
}

/** The log member of a grant's first slot (the acquire script names them slotId:1..granted). */
function slotMember(slotId: string): string {
  return `${slotId}:1`;
}

function assertPositiveInteger(name: string, value: number | undefined): void {
  if (value === undefined || !Number.isInteger(value) || value < 1) {
    throw new Error(`send engine: ${name} must be a positive integer, got ${String(value)}`);
  }
}
