export const MESSAGING_WINDOW_MS = 24 * 60 * 60 * 1000;

export interface MessagingWindow {
  status: 'open' | 'closed';
  expires_at: string | undefined;
  hours_remaining: number;
}

/** The 24 h window opened by the customer's last message, seen at `now` (virtual for testers). */
export function messagingWindow(lastInboundAt: Date | null | undefined, now: number): MessagingWindow {
  if (!lastInboundAt) return { status: 'closed', expires_at: undefined, hours_remaining: 0 };
  const expiresAt = lastInboundAt.getTime() + MESSAGING_WINDOW_MS;
  const remainingMs = expiresAt - now;
  return {
    status: remainingMs > 0 ? 'open' : 'closed',
    expires_at: new Date(expiresAt).toISOString(),
    hours_remaining: remainingMs > 0 ? Math.round((remainingMs / 3_600_000) * 10_000) / 10_000 : 0,
  };
}

/** Tester conversations live on the business's virtual clock: real now plus its offset. */
export function conversationNow(isTester: boolean, testerClockOffsetMs: number, realNow: number): number {
  return isTester ? realNow + testerClockOffsetMs : realNow;
}
