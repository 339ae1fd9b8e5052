import { DEFAULT_TIMELINE_LIMIT, MAX_TIMELINE_LIMIT, type TimelineItem, mergeRecentTimeline, timelineLimit } from './timeline-merge';

const at = (minute: number) => new Date(Date.UTC(2025, 0, 1, 12, minute));
const item = (role: TimelineItem['role'], minute: number): TimelineItem => ({ role, text: `${role}@${minute}`, at: at(minute) });

describe('timelineLimit', () => {
  it.each([
    [0, DEFAULT_TIMELINE_LIMIT],
    [-5, DEFAULT_TIMELINE_LIMIT],
    [Number.NaN, DEFAULT_TIMELINE_LIMIT],
    [1, 1],
    [30, 30],
    [100, 100],
    [101, MAX_TIMELINE_LIMIT],
    [10_000, MAX_TIMELINE_LIMIT],
  ])('%s -> %s', (requested, expected) => {
    expect(timelineLimit(requested)).toBe(expected);
  });
});

describe('mergeRecentTimeline', () => {
  it('merges messages and notes by time ascending', () => {
    const messages = [item('business', 5), item('customer', 1)];
    const notes = [item('note', 3)];
    expect(mergeRecentTimeline(messages, notes, 10).map((entry) => entry.text)).toEqual(['customer@1', 'note@3', 'business@5']);
  });

  it('keeps only the most recent entries', () => {
    const messages = [item('customer', 1), item('business', 2), item('customer', 4)];
    const notes = [item('note', 3), item('note', 5)];
    expect(mergeRecentTimeline(messages, notes, 3).map((entry) => entry.text)).toEqual(['note@3', 'customer@4', 'note@5']);
  });

  it('puts a message before a note of the same instant', () => {
    expect(mergeRecentTimeline([item('customer', 1)], [item('note', 1)], 5).map((entry) => entry.role)).toEqual(['customer', 'note']);
  });
});
