import { randomUUID } from 'node:crypto';
import { ConversationModel, ScheduledMessageModel } from '@cmsg/dal';
import { ConversationActionsServiceClient, type PromiseClient } from '@cmsg/proto';
import { type TestBusiness, stackGrpcClient } from '@cmsg/testing';

/** The conversations service's gRPC face, as the actions-runner calls it. */
export function conversationActionsClient(): { client: PromiseClient<ConversationActionsServiceClient>; close(): void } {
  const { rpc, close } = stackGrpcClient(ConversationActionsServiceClient, 'conversations', { deadlineMs: 10_000 });
  return { client: rpc, close };
}

export function callerOf(business: TestBusiness) {
  return { business_id: business.businessId, token_uuid: business.tokenUuid };
}

export type ScheduleSeed = { executor_kind: 'ai_employee'; ai_employee_id: string; template_id?: string | null } | { executor_kind: 'human_user'; template_id: string };

/** A pending schedule written straight into the database, pointed to by the conversation (as the scheduler does). */
export async function seedPendingSchedule(business: TestBusiness, conversationUuid: string, seed: ScheduleSeed): Promise<string> {
  const uuid = randomUUID();
  const now = new Date();
  await ScheduledMessageModel.create({
    _id: uuid,
    business_id: business.businessId,
    conversation_id: conversationUuid,
    status: 'pending',
    executor_kind: seed.executor_kind,
    ai_employee_id: seed.executor_kind === 'ai_employee' ? seed.ai_employee_id : null,
    reason: seed.executor_kind === 'ai_employee' ? 'Follow up on the quote' : null,
    template_id: seed.template_id ?? null,
    message_kind: seed.executor_kind === 'human_user' ? 'message' : null,
    payload: seed.executor_kind === 'human_user' ? { kind: 'message', text: 'Hello again', media: null } : null,
    template_variables: [{ index: 1, value: 'Ana' }],
    schedule_at: new Date(now.getTime() + 3_600_000),
    author: { type: 'api_token', uuid: business.tokenUuid },
    history: [{ at: now, event: 'created', status: 'pending' }],
    created_at: now,
    updated_at: now,
  });
  await ConversationModel.updateOne({ _id: conversationUuid }, { $set: { pending_schedule_id: uuid } });
  return uuid;
}

export function storedSchedule(uuid: string) {
  return ScheduledMessageModel.findById(uuid).lean();
}

export function storedConversation(uuid: string) {
  return ConversationModel.findById(uuid).lean();
}
