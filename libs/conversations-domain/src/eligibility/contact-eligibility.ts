import { MESSAGING_WINDOW_MS, messagingWindow } from '../conversation/messaging-window';

export type EligibilityReason = 'WINDOW_CLOSED' | 'CONTACT_OPTED_OUT' | 'RECIPIENT_UNDELIVERABLE' | 'MARKETING_LIMIT_REACHED';

type ConsentStatus = 'opted_in' | 'opted_out' | 'unknown';

/** What GET /contacts/{uuid}/eligibility reads of a contact and its conversation (CONTRACT 10.3). */
export interface EligibilityFacts {
  /** The conversation's last customer message: the window as the status snapshot computes it. */
  lastInboundAt: Date | null;
  consent: { marketing: ConsentStatus; utility: ConsentStatus };
  hasPhone: boolean;
  /** The conversation's newest outbound message, whatever its age. */
  lastOutbound: { status: string; errorCode: string | null } | null;
  /** When the newest outbound message refused with MARKETING_LIMIT_REACHED (131049) was made, if any. */
  lastMarketingLimitAt: Date | null;
}

export interface ContactEligibility {
  window: { status: 'open' | 'closed'; expires_at: string | null };
  can_send: { free_form: boolean; marketing: boolean; utility: boolean; authentication: boolean };
  reasons: EligibilityReason[];
}

/**
 * The reasons, each from stored data only (no provider call):
 * - WINDOW_CLOSED: no customer message in the last 24 h; free_form false.
 * - CONTACT_OPTED_OUT: marketing or utility consent opted_out; that category false (authentication
 *   is never blocked by consent, CONTRACT 10.2).
 * - RECIPIENT_UNDELIVERABLE: the newest outbound message failed with it (131026); everything false,
 *   until a later message is accepted or the customer writes (their message makes a new newest
 *   exchange, and the window then allows free form again).
 * - MARKETING_LIMIT_REACHED: a send failed with it (131049) less than 24 h ago; marketing false.
 * Authentication templates need a phone: without one, authentication false (no reason code: the
 * contract's list has none, AUTH_TEMPLATE_REQUIRES_PHONE is what a send would answer).
 */
export function contactEligibility(facts: EligibilityFacts, now: number): ContactEligibility {
  const window = messagingWindow(facts.lastInboundAt, now);
  const reasons = new Set<EligibilityReason>();
  const undeliverable = facts.lastOutbound?.status === 'failed' && facts.lastOutbound.errorCode === 'RECIPIENT_UNDELIVERABLE';
  const marketingLimited = facts.lastMarketingLimitAt !== null && now - facts.lastMarketingLimitAt.getTime() < MESSAGING_WINDOW_MS;
  const freeForm = window.status === 'open';
  if (!freeForm) reasons.add('WINDOW_CLOSED');
  if (facts.consent.marketing === 'opted_out' || facts.consent.utility === 'opted_out') reasons.add('CONTACT_OPTED_OUT');
  if (undeliverable) reasons.add('RECIPIENT_UNDELIVERABLE');
  if (marketingLimited) reasons.add('MARKETING_LIMIT_REACHED');
  const deliverable = !undeliverable;
  return {
    window: { status: window.status, expires_at: window.expires_at ?? null },
    can_send: {
      free_form: deliverable && freeForm,
      marketing: deliverable && facts.consent.marketing !== 'opted_out' && !marketingLimited,
      utility: deliverable && facts.consent.utility !== 'opted_out',
      authentication: deliverable && facts.hasPhone,
    },
    reasons: [...reasons],
  };
}
