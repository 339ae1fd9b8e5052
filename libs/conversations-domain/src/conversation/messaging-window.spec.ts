import { conversationNow, messagingWindow } from './messaging-window';

describe('messagingWindow', () => {
  const lastInbound = new Date('2026-01-01T10:00:00.000Z');

  it('is closed with no expiry when the contact never wrote', () => {
    expect(messagingWindow(null, Date.now())).toEqual({ status: 'closed', expires_at: undefined, hours_remaining: 0 });
  });

  it('is open for 24 h after the last inbound message, with fractional hours remaining', () => {
    const window = messagingWindow(lastInbound, Date.parse('2026-01-01T20:30:00.000Z'));
    expect(window).toEqual({ status: 'open', expires_at: '2026-01-02T10:00:00.000Z', hours_remaining: 13.5 });
  });

  it('is closed with 0 hours at and after expiry', () => {
    expect(messagingWindow(lastInbound, Date.parse('2026-01-02T10:00:00.000Z'))).toMatchObject({ status: 'closed', hours_remaining: 0 });
  });

  it('uses the virtual clock only for tester conversations', () => {
    expect(conversationNow(true, 3_600_000, 1000)).toBe(3_601_000);
    expect(conversationNow(false, 3_600_000, 1000)).toBe(1000);
  });
});
