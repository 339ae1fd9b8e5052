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

  it('places a webhook delivered after its second ended (slow, a retry) at the second\'s last millisecond, one received before it at its start', () => {
    expect(inboundMessageTime(second, new Date('2025-03-01T12:00:03.000Z'), now)).toEqual(new Date('2025-03-01T12:00:00.999Z'));
    expect(inboundMessageTime(second, new Date('2025-03-01T12:00:01.010Z'), now)).toEqual(new Date('2025-03-01T12:00:00.999Z'));
    expect(inboundMessageTime(second, new Date('2025-03-01T11:59:59.500Z'), now)).toEqual(second);
  });

  it('never puts a late message of a second before one of the same second that came on time', () => {
    const onTime = inboundMessageTime(second, new Date('2025-03-01T12:00:00.150Z'), now);
    const late = inboundMessageTime(second, new Date('2025-03-01T12:00:01.010Z'), now);
    expect(late.getTime()).toBeGreaterThan(onTime.getTime());
    // A message of the next second still comes after both.
    expect(inboundMessageTime(new Date('2025-03-01T12:00:01.000Z'), new Date('2025-03-01T12:00:01.020Z'), now).getTime()).toBeGreaterThan(late.getTime());
  });

  it('does not trust a time far ahead of our clock, nor an unreadable one', () => {
    expect(inboundMessageTime(new Date('2025-03-01T12:10:00.000Z'), now, now)).toEqual(now);
    expect(inboundMessageTime(new Date(Number.NaN), now, now)).toEqual(now);
  });
});
