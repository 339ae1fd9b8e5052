import {
  defineContactAttributeEndpoint,
  getContactEligibilityEndpoint,
  deleteContactAttributeEndpoint,
  eraseContactEndpoint,
  getContactEndpoint,
  listContactAttributesEndpoint,
  patchContactEndpoint,
  searchContactsEndpoint,
  upsertContactEndpoint,
  ELIGIBILITY_REASONS,
} from '@cmsg/api-schemas';
import { toContact, toContactAttributeDefinition, toContactListResponse } from '../mappers/contact-list.mapper';
import { publicEnumValue, requiredField } from '../mappers/upstream-fields';
import { type BusinessRoute, StatusResponse, businessRoute } from './business-route';

export const contactRoutes: readonly BusinessRoute[] = [
  businessRoute(upsertContactEndpoint, {
    call: ({ conversations }, { caller, body }) =>
      conversations.upsertContact({
        caller,
        ...body,
        attributes: body.attributes,
        consent: body.consent && { marketing: body.consent.marketing?.status, utility: body.consent.utility?.status },
      }),
    // A match answers 200, a creation the endpoint's 201 (CONTRACT 10.1).
    toResponse: (response) => {
      const body = { contact: toContact(requiredField(response.contact, 'contact')), created: response.created };
      return response.created ? body : new StatusResponse(200, body);
    },
  }),
  // Before /contacts/:uuid, which Express would otherwise match for /contacts/search and answer 405.
  businessRoute(searchContactsEndpoint, {
    call: ({ conversations }, { caller, body }) => conversations.searchContacts({ caller, filter: body.filter, cursor: body.cursor, limit: body.limit }),
    toResponse: toContactListResponse,
  }),
  businessRoute(getContactEndpoint, {
    call: ({ conversations }, { caller, params }) => conversations.getContact({ caller, uuid: params.uuid }),
    toResponse: toContact,
  }),
  businessRoute(eraseContactEndpoint, {
    call: async ({ conversations, idempotencyRecords }, { caller, params }) => {
      const erasing = await conversations.eraseContact({ caller, uuid: params.uuid });
      // Replays of idempotent requests about the contact hold its data too (CONTRACT 10.1).
      await idempotencyRecords.forgetResponsesMentioning([erasing.contact_uuid, ...(erasing.conversation_uuid ? [erasing.conversation_uuid] : [])]);
      return erasing;
    },
    toResponse: (response) => ({ contact: { uuid: response.contact_uuid }, status: 'erasing' as const }),
  }),
  businessRoute(getContactEligibilityEndpoint, {
    call: ({ conversations }, { caller, params }) => conversations.getContactEligibility({ caller, uuid: params.uuid }),
    toResponse: (response) => ({
      window: { status: response.window?.status === 'open' ? ('open' as const) : ('closed' as const), expires_at: response.window?.expires_at ?? null },
      can_send: requiredField(response.can_send, 'can_send'),
      reasons: response.reasons.map((reason) => publicEnumValue(ELIGIBILITY_REASONS, reason, 'reasons')),
    }),
  }),
  businessRoute(patchContactEndpoint, {
    call: ({ conversations }, { caller, params, body }) => conversations.patchContact({ caller, uuid: params.uuid, patch: body }),
    toResponse: toContact,
  }),
  businessRoute(defineContactAttributeEndpoint, {
    call: ({ conversations }, { caller, body }) => conversations.defineContactAttribute({ caller, key: body.key, type: body.type, options: body.options ?? [] }),
    toResponse: toContactAttributeDefinition,
  }),
  businessRoute(listContactAttributesEndpoint, {
    call: ({ conversations }, { caller }) => conversations.listContactAttributes({ caller }),
    toResponse: (response) => ({ items: response.items.map(toContactAttributeDefinition) }),
  }),
  businessRoute(deleteContactAttributeEndpoint, {
    call: async ({ conversations }, { caller, params }) => {
      const definitions = await conversations.listContactAttributes({ caller });
      await conversations.deleteContactAttribute({ caller, key: params.key });
      return definitions.items.find((definition) => definition.key === params.key);
    },
    toResponse: (definition) => toContactAttributeDefinition(requiredField(definition, 'definition')),
  }),
];
