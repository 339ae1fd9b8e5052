import { randomUUID } from 'node:crypto';
import { ConversationModel, businessScope, pendingConversationKey } from '@cmsg/dal';
import mongoose from 'mongoose';
import { type PromiseClient, insecureChannel, promiseClient } from '@cmsg/platform';
import { ConversationActionsServiceClient } from '@cmsg/proto';
import { type TestBusiness, integrationStack } from '@cmsg/testing';

/** The conversations service's gRPC face, as the actions-runner calls it. */
export function conversationActionsClient(): { client: PromiseClient<ConversationActionsServiceClient>; close(): void } {
  const raw = new ConversationActionsServiceClient(integrationStack().env['CONVERSATIONS_GRPC_ADDRESS']!, insecureChannel);
  return { client: promiseClient(raw, { deadlineMs: 10_000 }), close: () => raw.close() };
}

export function callerOf(business: TestBusiness) {
  return { business_id: business.businessId, token_uuid: business.tokenUuid };
}

export type ScheduleSeed = { executor_kind: 'ai_employee'; ai_employee_id: string; template_id?: string | null } | { executor_kind: 'human_user'; template_id: string };

const scheduledMessages = () => mongoose.connection.collection<{ _id: string; history: Record<string, unknown>[]; [field: string]: unknown }>('scheduled_messages');

/** A pending schedule written straight into the database, holding its conversation's pending key (as a create does). */
export async function seedPendingSchedule(business: TestBusiness, conversationUuid: string, seed: ScheduleSeed): Promise<string> {
  const uuid = randomUUID();
  const now = new Date();
  await scheduledMessages().insertOne({
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
  return scheduledMessages().findOne({ _id: uuid });
}

/** The conversation's pending schedule: the one holding its pending key. */
export async function pendingScheduleOf(conversationUuid: string): Promise<string | null> {
  return (await scheduledMessages().findOne({ conversation_id: conversationUuid, pending_conversation_key: { $exists: true } }))?._id ?? null;
}

export function storedConversation(uuid: string) {
  return ConversationModel.findById(uuid).lean();
}
