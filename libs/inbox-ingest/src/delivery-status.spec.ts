import { deliveryFailureOf, deliveryPricingOf, isDeliveryStatus, statusesReplacedBy } from './delivery-status';

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

describe('a delivery status\'s failure and pricing (CONTRACT 10.3)', () => {
  const status = { id: 'wamid.1', status: 'failed', timestamp: '1767225600' };

  it.each([
    [131026, 'RECIPIENT_UNDELIVERABLE'],
    [131049, 'MARKETING_LIMIT_REACHED'],
    [131050, 'CONTACT_OPTED_OUT'],
    [131047, 'WINDOW_CLOSED'],
    [130472, 'RECIPIENT_IN_EXPERIMENT'],
    [131000, 'SEND_FAILED'],
  ])('maps a failed status with code %i to %s, keeping the code', (code, catalogCode) => {
    const failure = deliveryFailureOf({ ...status, errors: [{ code, title: 'refused', error_data: { details: 'why' } }] });
    expect(failure).toEqual({ code: catalogCode, message: `The chat platform reported the message as failed (code ${code}): why`, provider_code: String(code) });
  });

  it('is SEND_FAILED without a provider code when the status names no error', () => {
    expect(deliveryFailureOf(status)).toMatchObject({ code: 'SEND_FAILED', provider_code: null });
  });

  it('keeps the pricing as sent, absent fields null, and null without one', () => {
    expect(deliveryPricingOf({ ...status, status: 'sent', pricing: { billable: true, pricing_model: 'PMP', category: 'marketing' } })).toEqual({ billable: true, pricing_model: 'PMP', category: 'marketing' });
    expect(deliveryPricingOf({ ...status, status: 'sent', pricing: { category: 'service' } })).toEqual({ billable: null, pricing_model: null, category: 'service' });
    expect(deliveryPricingOf(status)).toBeNull();
  });
});
