import { ConversationActionsServiceClient } from '@cmsg/proto';
import { type CloudApiRecord, FakeCloudApiRemote, type TestBusiness, integrationFakes, storedCollection } from '@cmsg/testing';
import { stackGrpcClient } from '@cmsg/testing/grpc';

/** The fake Cloud API of the integration stack (records every request, takes failure rules). */
export function cloudApi(): FakeCloudApiRemote {
  return new FakeCloudApiRemote(integrationFakes().chatApiBaseUrl);
}

/** The Cloud API phone_number_id of a test business's first channel (its sends are recorded under it). */
export function phoneNumberIdOf(business: TestBusiness): string {
  return business.seed.channels![0]!.phone_number_id;
}

/** Message requests the fake received for one business's channel after `since` (a record seq). */
export async function messageRequests(business: TestBusiness, since = 0): Promise<CloudApiRecord[]> {
  return cloudApi().requests({ kind: 'message', phone_number_id: phoneNumberIdOf(business), since });
}

/** The highest record seq so far, to ask later for what came after it. */
export async function lastRequestSeq(): Promise<number> {
  const all = await cloudApi().requests();
  return all.at(-1)?.seq ?? 0;
}

/** The exact JSON body the product sends for a text to a phone (the fake records it as received). */
export function textRequestBody(phone: string, body: string) {
  return { messaging_product: 'whatsapp', recipient_type: 'individual', to: phone.replace(/\D/g, ''), type: 'text', text: { body, preview_url: false } };
}

/** Direct gRPC access to the conversations service, as the actions-runner calls it. */
export function conversationActionsClient() {
  return stackGrpcClient(ConversationActionsServiceClient, 'conversations', { deadlineMs: 45_000 });
}

export async function storedMessage(uuid: string) {
  return storedCollection('messages').findOne({ _id: uuid });
}
