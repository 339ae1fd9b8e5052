import { FakeAiRemote, FakeCloudApiRemote, type TestBusiness, integrationFakes, integrationStack, signedWebhookRequest, storedCollection } from '@cmsg/testing';

export function cloudApi(): FakeCloudApiRemote {
  return new FakeCloudApiRemote(integrationFakes().chatApiBaseUrl);
}

export function aiProvider(): FakeAiRemote {
  return new FakeAiRemote(integrationFakes().aiBaseUrl);
}

/** The channel fields a webhook of this business's first channel carries. */
export function channelOf(business: TestBusiness) {
  return { phone_number_id: business.seed.channels![0]!.phone_number_id };
}

/** POSTs a webhook payload as the provider does: the exact bytes, signed with the stack's app secret. */
export async function deliverWebhook(payload: unknown, appSecret = integrationStack().env['CHAT_APP_SECRET']!): Promise<Response> {
  const request = signedWebhookRequest(payload, appSecret);
  return fetch(`${integrationStack().gatewayUrls[0]}/webhooks/chat`, { method: 'POST', headers: request.headers, body: request.body });
}

/** Ingestion runs in the background: tests poll with the shared helper. */
export { eventually } from '@cmsg/testing';

export function inboundMessageByProviderId(businessId: string, providerMessageId: string) {
  return storedCollection('messages').findOne({ business_id: businessId, provider_message_id: providerMessageId, is_from_customer: true });
}

export function conversationById(uuid: string) {
  return storedCollection('conversations').findOne({ _id: uuid });
}
