import type { BusinessScope, ContactEntity } from '@cmsg/dal';
import { existingContact } from '../contacts/get-contact.usecase';
import type { ContactStore } from '../contacts/contact-ports';
import { MESSAGING_WINDOW_MS } from '../conversation/messaging-window';
import { type ContactEligibility, contactEligibility } from './contact-eligibility';

/** The stored facts eligibility reads (ConversationRepository and MessageRepository). */
export interface EligibilityPorts {
  contacts: Pick<ContactStore, 'findById'>;
  /** The contact's conversation with its last customer message time, or null before it exists. */
  conversationOf(scope: BusinessScope, contactId: string): Promise<{ id: string; lastInboundAt: Date | null } | null>;
  newestOutbound(scope: BusinessScope, conversationId: string): Promise<{ status: string; errorCode: string | null } | null>;
  newestOutboundFailedSince(scope: BusinessScope, conversationId: string, code: string, since: Date): Promise<{ createdAt: Date } | null>;
  clock: () => number;
}

/** GET /contacts/{uuid}/eligibility (CONTRACT 10.3); CONTACT_NOT_FOUND for an unknown or erased contact. */
export async function getContactEligibility(ports: EligibilityPorts, scope: BusinessScope, uuid: string): Promise<ContactEligibility> {
  const contact = await existingContact(ports, scope, uuid);
  const now = ports.clock();
  const conversation = await ports.conversationOf(scope, contact._id);
  const [lastOutbound, marketingLimit] = conversation
    ? await Promise.all([
        ports.newestOutbound(scope, conversation.id),
        ports.newestOutboundFailedSince(scope, conversation.id, 'MARKETING_LIMIT_REACHED', new Date(now - MESSAGING_WINDOW_MS)),
      ])
    : [null, null];
  return contactEligibility(
    {
      lastInboundAt: conversation?.lastInboundAt ?? null,
      consent: { marketing: consentOf(contact, 'marketing'), utility: consentOf(contact, 'utility') },
      hasPhone: Boolean(contact.phone_key),
      lastOutbound,
      lastMarketingLimitAt: marketingLimit?.createdAt ?? null,
    },
    now,
  );
}

function consentOf(contact: ContactEntity, category: 'marketing' | 'utility'): 'opted_in' | 'opted_out' | 'unknown' {
  const status = (contact as { consent?: Record<string, { status?: string } | null> | null }).consent?.[category]?.status;
  return status === 'opted_in' || status === 'opted_out' ? status : 'unknown';
}
