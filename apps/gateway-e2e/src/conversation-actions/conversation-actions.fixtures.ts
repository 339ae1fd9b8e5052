import { randomUUID } from 'node:crypto';
import { businessScope, pendingConversationKey } from '@cmsg/dal';
import { ConversationActionsServiceClient, type PromiseClient } from '@cmsg/proto';
import { type TestBusiness, storedCollection } from '@cmsg/testing';
import { stackGrpcClient } from '@cmsg/testing/grpc';

/** The conversations service's gRPC face, as the actions-runner calls it. */
export function conversationActionsClient(): { client: PromiseClient<ConversationActionsServiceClient>; close(): void } {
  // The gateway gives these calls 60 s (sends wait for the provider); the same here.
  const { rpc, close } = stackGrpcClient(ConversationActionsServiceClient, 'conversations', { deadlineMs: 60_000 });
  return { client: rpc, close };
}

export function callerOf(business: TestBusiness) {
  return { business_id: business.businessId, token_uuid: business.tokenUuid };
}

export type ScheduleSeed = { executor_kind: 'ai_employee'; ai_employee_id: string; template_id?: string | null } | { executor_kind: 'human_user'; template_id: string };


/** A pending schedule written straight into the database, holding its conversation's pending key (as a create does). */
export async function seedPendingSchedule(business: TestBusiness, conversationUuid: string, seed: ScheduleSeed): Promise<string> {
  const uuid = randomUUID();
  const now = new Date();
  await storedCollection('scheduled_messages').insertOne({
    _id: uuid,
    business_id: business.businessId,
    conversation_id: conversationUuid,
    status: 'pending',
    pending_conversation_key: pendingConversationKey(businessScope(business.businessId), conversationUuid),
    pending_id: uuid,
    executor_kind: seed.executor_kind,
    ai_employee_id: seed.executor_kind === 'ai_employee' ? seed.ai_employee_id : null,
    reason: seed.executor_kind === 'ai_employee' ? 'Follow up on the quote' : null,
    template_id: seed.template_id ?? null,
    message_kind: seed.executor_kind === 'human_user' ? 'message' : null,
    payload: seed.executor_kind === 'human_user' ? { kind: 'message', text: 'Hello again', media: null } : null,
    template_variables: [{ index: 1, value: 'Ana' }],
    template_header: null,
    template_button_parameters: [],
    schedule_at: new Date(now.getTime() + 3_600_000),
    schedule_local: null,
    cancel_on_customer_reply: false,
    is_tester: false,
    created_by_token_id: business.tokenUuid,
    author: { type: 'api_token', uuid: business.tokenUuid },
    error: null,
    history: [{ at: now, event: 'created', status: 'pending' }],
    fired_at: null,
    fire_claim: null,
    delivery: null,
    note_id: null,
    created_at: now,
    updated_at: now,
  });
  return uuid;
}

export function storedSchedule(uuid: string) {
  return storedCollection('scheduled_messages').findOne({ _id: uuid });
}

/** The conversation's pending schedule: the one holding its pending key. */
export async function pendingScheduleOf(conversationUuid: string): Promise<string | null> {
  return (await storedCollection('scheduled_messages').findOne({ conversation_id: conversationUuid, pending_conversation_key: { $exists: true } }))?._id ?? null;
}

export function storedConversation(uuid: string) {
  return storedCollection('conversations').findOne({ _id: uuid });
}
