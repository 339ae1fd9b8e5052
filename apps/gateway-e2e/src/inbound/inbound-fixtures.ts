import { ConversationModel, MessageModel } from '@cmsg/dal';
import { FakeAiRemote, FakeCloudApiRemote, type TestBusiness, integrationFakes, integrationStack, signedWebhookRequest } from '@cmsg/testing';

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

/** Polls until `read` answers something `accept` likes (ingestion runs in the background). */
export async function eventually<Value>(read: () => Promise<Value>, accept: (value: Value) => boolean, timeoutMs = 20_000): Promise<Value> {
  const deadline = Date.now() + timeoutMs;
  let last: Value = await read();
  while (!accept(last)) {
    if (Date.now() > deadline) throw new Error(`condition not met within ${timeoutMs} ms; last value: ${JSON.stringify(last)}`);
    await new Promise((resolve) => setTimeout(resolve, 150));
    last = await read();
  }
  return last;
}

export function inboundMessageByProviderId(businessId: string, providerMessageId: string) {
  return MessageModel.findOne({ business_id: businessId, provider_message_id: providerMessageId, is_from_customer: true }).lean();
}

export function conversationById(uuid: string) {
  return ConversationModel.findById(uuid).lean();
}
