import { type ContactEntity, businessScope } from '@cmsg/dal';
import { type EligibilityPorts, getContactEligibility } from './get-contact-eligibility.usecase';

const now = Date.parse('2026-11-29T12:00:00Z');

function ports(): EligibilityPorts & { calls: string[] } {
  const calls: string[] = [];
  const contacts = [
    { _id: 'c1', business_id: 'b1', phone_key: '5215512345678', consent: { marketing: { status: 'opted_out' }, utility: { status: 'unknown' } } },
    { _id: 'c2', business_id: 'b1', phone_key: null, consent: {} },
  ] as unknown as ContactEntity[];
  return {
    calls,
    contacts: { findById: async (scope, id) => contacts.find((contact) => contact._id === id && contact.business_id === scope.businessId) ?? null },
    conversationOf: async (_scope, contactId) => (contactId === 'c1' ? { id: 'v1', lastInboundAt: new Date(now - 3_600_000) } : null),
    newestOutbound: async (_scope, conversationId) => {
      calls.push(`newest ${conversationId}`);
      return { status: 'failed', errorCode: 'RECIPIENT_UNDELIVERABLE' };
    },
    newestOutboundFailedSince: async (_scope, conversationId, code, since) => {
      calls.push(`failed ${conversationId} ${code} ${since.toISOString()}`);
      return { createdAt: new Date(now - 60_000) };
    },
    clock: () => now,
  };
}

describe('getContactEligibility', () => {
  it('reads the consent, the newest outbound message and the 131049 refusals of the last 24 h of the contact\'s conversation', async () => {
    const stored = ports();
    const eligibility = await getContactEligibility(stored, businessScope('b1'), 'c1');
    expect(eligibility.reasons.sort()).toEqual(['CONTACT_OPTED_OUT', 'MARKETING_LIMIT_REACHED', 'RECIPIENT_UNDELIVERABLE']);
    expect(stored.calls).toEqual(['newest v1', 'failed v1 MARKETING_LIMIT_REACHED 2026-11-28T12:00:00.000Z']);
  });

  it('a contact without a conversation or phone: window closed, authentication refused, nothing else read', async () => {
    const stored = ports();
    expect(await getContactEligibility(stored, businessScope('b1'), 'c2')).toEqual({
      window: { status: 'closed', expires_at: null },
      can_send: { free_form: false, marketing: true, utility: true, authentication: false },
      reasons: ['WINDOW_CLOSED'],
    });
    expect(stored.calls).toEqual([]);
  });

  it("answers CONTACT_NOT_FOUND for an unknown contact and another business's", async () => {
    await expect(getContactEligibility(ports(), businessScope('b1'), 'nobody')).rejects.toMatchObject({ code: 'CONTACT_NOT_FOUND' });
    await expect(getContactEligibility(ports(), businessScope('b2'), 'c1')).rejects.toMatchObject({ code: 'CONTACT_NOT_FOUND' });
  });
});
