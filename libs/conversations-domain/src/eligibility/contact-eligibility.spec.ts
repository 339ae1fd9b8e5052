import { type EligibilityFacts, contactEligibility } from './contact-eligibility';

const now = Date.parse('2026-11-29T12:00:00Z');
const hoursAgo = (hours: number) => new Date(now - hours * 3_600_000);
const facts = (overrides: Partial<EligibilityFacts> = {}): EligibilityFacts => ({
  lastInboundAt: hoursAgo(1),
  consent: { marketing: 'unknown', utility: 'opted_in' },
  hasPhone: true,
  lastOutbound: { status: 'read', errorCode: null },
  lastMarketingLimitAt: null,
  ...overrides,
});

describe('contactEligibility', () => {
  it('an open window and no refusal: everything allowed, no reasons, the window as the status snapshot has it', () => {
    expect(contactEligibility(facts(), now)).toEqual({
      window: { status: 'open', expires_at: '2026-11-30T11:00:00.000Z' },
      can_send: { free_form: true, marketing: true, utility: true, authentication: true },
      reasons: [],
    });
  });

  it('a closed window (or none yet) refuses free form only', () => {
    expect(contactEligibility(facts({ lastInboundAt: hoursAgo(25) }), now)).toMatchObject({ can_send: { free_form: false, marketing: true, utility: true, authentication: true }, reasons: ['WINDOW_CLOSED'] });
    expect(contactEligibility(facts({ lastInboundAt: null }), now).window).toEqual({ status: 'closed', expires_at: null });
  });

  it('an opted-out category refuses that category, never authentication', () => {
    const eligibility = contactEligibility(facts({ consent: { marketing: 'opted_out', utility: 'opted_in' } }), now);
    expect(eligibility.can_send).toEqual({ free_form: true, marketing: false, utility: true, authentication: true });
    expect(eligibility.reasons).toEqual(['CONTACT_OPTED_OUT']);
  });

  it('a last outbound message failed RECIPIENT_UNDELIVERABLE refuses everything', () => {
    const eligibility = contactEligibility(facts({ lastOutbound: { status: 'failed', errorCode: 'RECIPIENT_UNDELIVERABLE' } }), now);
    expect(eligibility.can_send).toEqual({ free_form: false, marketing: false, utility: false, authentication: false });
    expect(eligibility.reasons).toEqual(['RECIPIENT_UNDELIVERABLE']);
  });

  it('MARKETING_LIMIT_REACHED within 24 h refuses marketing; older, it is forgotten', () => {
    expect(contactEligibility(facts({ lastMarketingLimitAt: hoursAgo(23) }), now)).toMatchObject({ can_send: { marketing: false, utility: true }, reasons: ['MARKETING_LIMIT_REACHED'] });
    expect(contactEligibility(facts({ lastMarketingLimitAt: hoursAgo(24) }), now)).toMatchObject({ can_send: { marketing: true }, reasons: [] });
  });

  it('without a phone, authentication is refused', () => {
    expect(contactEligibility(facts({ hasPhone: false }), now).can_send).toEqual({ free_form: true, marketing: true, utility: true, authentication: false });
  });
});
