import { isDeliveryStatus, statusesReplacedBy } from './delivery-status';

describe('delivery statuses', () => {
  it('only move a message forward', () => {
    expect(statusesReplacedBy('sent')).toEqual(['sending']);
    expect(statusesReplacedBy('delivered')).toEqual(['sending', 'sent']);
    expect(statusesReplacedBy('read')).toEqual(['sending', 'sent', 'delivered']);
  });

  it('let failed end only a message not delivered yet', () => {
    expect(statusesReplacedBy('failed')).toEqual(['sending', 'sent']);
  });

  it('never touch simulated (tester) or already failed messages', () => {
    for (const status of ['sent', 'delivered', 'read', 'failed'] as const) {
      expect(statusesReplacedBy(status)).not.toContain('simulated');
      expect(statusesReplacedBy(status)).not.toContain('failed');
    }
  });

  it('know the four provider statuses', () => {
    expect(['sent', 'delivered', 'read', 'failed'].every(isDeliveryStatus)).toBe(true);
    expect(isDeliveryStatus('deleted')).toBe(false);
  });
});
