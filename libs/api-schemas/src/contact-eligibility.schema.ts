import { DateTimeSchema } from './common.schema';
import { ContactParamsSchema } from './contact-write.schema';
import { definePublicEndpoint } from './public-endpoint';
import { z } from './zod';

export const ELIGIBILITY_REASONS = ['WINDOW_CLOSED', 'CONTACT_OPTED_OUT', 'RECIPIENT_UNDELIVERABLE', 'MARKETING_LIMIT_REACHED'] as const;

export const ContactEligibilitySchema = z
  .object({
    window: z.object({ status: z.enum(['open', 'closed']), expires_at: DateTimeSchema.nullable() }),
    can_send: z.object({ free_form: z.boolean(), marketing: z.boolean(), utility: z.boolean(), authentication: z.boolean() }),
    reasons: z.array(z.enum(ELIGIBILITY_REASONS)),
  })
  .openapi('ContactEligibility');

export type ContactEligibility = z.infer<typeof ContactEligibilitySchema>;

export const getContactEligibilityEndpoint = definePublicEndpoint({
  operationId: 'getContactEligibility',
  method: 'get',
  path: '/contacts/:uuid/eligibility',
  summary: 'What can be sent to a contact now, and why not',
  description:
    'From stored data only: WINDOW_CLOSED (no customer message in the last 24 h: free_form false), CONTACT_OPTED_OUT (a category opted out: that category false; authentication never), RECIPIENT_UNDELIVERABLE (the newest outbound message failed with it: everything false), MARKETING_LIMIT_REACHED (a send refused with 131049 in the last 24 h: marketing false). Authentication needs a phone (false without one, no reason code).',
  tag: 'Contacts',
  successStatus: 200,
  successDescription: 'The eligibility.',
  errorCodes: ['CONTACT_NOT_FOUND'],
  schemas: { params: ContactParamsSchema, response: ContactEligibilitySchema },
});
