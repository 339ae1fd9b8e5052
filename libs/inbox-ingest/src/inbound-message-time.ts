/** A provider timestamp too far ahead of our clock is not trusted to open the window. */
const MAX_CLOCK_SKEW_MS = 5 * 60_000;

/** The last millisecond of a provider second. */
const LAST_MS_OF_SECOND = 999;

/**
 * When a customer message was sent, as stored (`created_at`, the window, the timeline order). The
 * provider's timestamp has whole seconds, so two messages of one second would have no order: a
 * message is placed within its provider second at the time the gateway received its webhook, or
 * at the second's last millisecond when the webhook came after the second ended (a slow delivery,
 * a retry). So the messages of one second keep the order they arrived in, and a late one never
 * goes before one of its second that came on time. A timestamp more than 5 minutes ahead of our
 * clock, or unreadable, is replaced by now.
 */
export function inboundMessageTime(providerTime: Date, receivedAt: Date, now: Date): Date {
  const at = providerTime.getTime();
  if (!Number.isFinite(at) || at > now.getTime() + MAX_CLOCK_SKEW_MS) return now;
  const sinceProviderSecond = receivedAt.getTime() - at;
  if (sinceProviderSecond < 0) return providerTime;
  return new Date(at + Math.min(sinceProviderSecond, LAST_MS_OF_SECOND));
}
