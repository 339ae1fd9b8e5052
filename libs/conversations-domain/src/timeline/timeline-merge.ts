/** customer | business | note, as the AI sees the conversation. */
export type TimelineRole = 'customer' | 'business' | 'note';

export interface TimelineItem {
  role: TimelineRole;
  text: string;
  at: Date;
}

export const DEFAULT_TIMELINE_LIMIT = 30;
export const MAX_TIMELINE_LIMIT = 100;

/** 0 or less: the default; above the cap: the cap (an internal RPC, so no error for a large ask). */
export function timelineLimit(requested: number): number {
  if (!Number.isFinite(requested) || requested <= 0) return DEFAULT_TIMELINE_LIMIT;
  return Math.min(Math.floor(requested), MAX_TIMELINE_LIMIT);
}

/**
 * The last `limit` entries of two streams, each read newest first, merged by time ascending;
 * at equal times messages come before notes (a note usually comments what was just said).
 */
export function mergeRecentTimeline(messages: readonly TimelineItem[], notes: readonly TimelineItem[], limit: number): TimelineItem[] {
  const rank = (item: TimelineItem) => (item.role === 'note' ? 1 : 0);
  const merged = [...messages, ...notes].sort((a, b) => a.at.getTime() - b.at.getTime() || rank(a) - rank(b));
  return merged.slice(Math.max(0, merged.length - limit));
}
