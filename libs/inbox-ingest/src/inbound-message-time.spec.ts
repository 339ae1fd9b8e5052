import { inboundMessageTime } from './inbound-message-time';

describe('inboundMessageTime', () => {
  const now = new Date('2025-03-01T12:00:05.000Z');
  const second = new Date('2025-03-01T12:00:00.000Z');

  it('refines the provider second with the receipt time when the webhook came within it', () => {
    expect(inboundMessageTime(second, new Date('2025-03-01T12:00:00.250Z'), now)).toEqual(new Date('2025-03-01T12:00:00.250Z'));
    expect(inboundMessageTime(second, new Date('2025-03-01T12:00:00.900Z'), now).getTime()).toBeGreaterThan(
      inboundMessageTime(second, new Date('2025-03-01T12:00:00.250Z'), now).getTime(),
    );
  });

  it('keeps the provider time of a webhook delivered later (a retry) or received before it', () => {
    expect(inboundMessageTime(second, new Date('2025-03-01T12:00:03.000Z'), now)).toEqual(second);
    expect(inboundMessageTime(second, new Date('2025-03-01T11:59:59.500Z'), now)).toEqual(second);
  });

  it('does not trust a time far ahead of our clock, nor an unreadable one', () => {
    expect(inboundMessageTime(new Date('2025-03-01T12:10:00.000Z'), now, now)).toEqual(now);
    expect(inboundMessageTime(new Date(Number.NaN), now, now)).toEqual(now);
  });
});
