/** A provider timestamp too far ahead of our clock is not trusted to open the window. */
const MAX_CLOCK_SKEW_MS = 5 * 60_000;

/**
 * When a customer message was sent, as stored (`created_at`, the window, the timeline order). The
 * provider's timestamp has whole seconds, so two messages of one second would have no order: when
 * the gateway received the webhook within that same second, its receipt time (milliseconds) is
 * used, which keeps a quick burst in the order it arrived. A timestamp more than 5 minutes ahead of
 * our clock, or unreadable, is replaced by now.
 */
export function inboundMessageTime(providerTime: Date, receivedAt: Date, now: Date): Date {
  const at = providerTime.getTime();
  if (!Number.isFinite(at) || at > now.getTime() + MAX_CLOCK_SKEW_MS) return now;
  const sinceProviderSecond = receivedAt.getTime() - at;
  return sinceProviderSecond >= 0 && sinceProviderSecond < 1000 ? receivedAt : providerTime;
}
