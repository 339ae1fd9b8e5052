import { randomUUID } from 'node:crypto';
import { AlreadyInStatePolicy, type ConversationActionsServiceClient, type PromiseClient } from '@cmsg/proto';
import { type TestBusiness, contactSeed, createTestBusiness, storedCollection } from '@cmsg/testing';
import { KafkaTopicProbe, type ProbedMessage } from '@cmsg/testing/kafka';
import { callerOf, conversationActionsClient, storedConversation } from './conversation-actions.fixtures';

/**
 * Owner and inbox-status changes arriving at the same moment: each real change is made once (an
 * update whose filter holds the value it replaces), with one broadcast (and, for the inbox status,
 * one timeline event), and the changes chain from the first value to the one the conversation ends
 * with.
 */
describe('concurrent owner and inbox-status changes', () => {
  let business: TestBusiness;
  let grpc: PromiseClient<ConversationActionsServiceClient>;
  let close: () => void;
  let probe: KafkaTopicProbe;
  const NOOP = AlreadyInStatePolicy.ALREADY_IN_STATE_NOOP;
  const CONFLICT = AlreadyInStatePolicy.ALREADY_IN_STATE_CONFLICT;
  const ai = { max: randomUUID(), eva: randomUUID() };
  const conversations = { sameTarget: randomUUID(), mixed: randomUUID(), handoff: randomUUID(), pending: randomUUID() };

  beforeAll(async () => {
    business = await createTestBusiness((seed) => {
      seed.ai_employees = [
        { uuid: ai.max, name: 'Max', model: 'gpt-test', wallet_tokens: 100 },
        { uuid: ai.eva, name: 'Eva', model: 'gpt-test', wallet_tokens: 100 },
      ];
      contactSeed(seed, { conversation: { uuid: conversations.sameTarget } });
      contactSeed(seed, { conversation: { uuid: conversations.mixed, ai_employee: ai.eva } });
      contactSeed(seed, { conversation: { uuid: conversations.handoff, ai_employee: ai.eva, inbox_status: 'resolved' } });
      contactSeed(seed, { conversation: { uuid: conversations.pending, inbox_status: 'resolved' } });
    });
    ({ client: grpc, close } = conversationActionsClient());
    probe = KafkaTopicProbe.forStackTopic('conversation-events');
    await probe.start();
  });

  afterAll(async () => {
    close();
    await probe.stop();
  });

  const caller = () => callerOf(business);
  const reference = (uuid: string) => ({ uuid });
  /** The changes of one kind broadcast for the conversation, as { from, to } (Kafka order, not change order). */
  const changesOf = (conversationUuid: string, type: string) =>
    probe.matching((message) => message.key === conversationUuid && message.value.type === type).map((message: ProbedMessage) => ({
      from: message.value.data.from as string | null,
      to: message.value.data.to as string | null,
    }));
  /** Waits until the probe stops receiving new events of the conversation (every publish of the burst arrived). */
  const settled = async (conversationUuid: string, atLeast: number) => {
    await probe.waitFor(() => probe.matching((message) => message.key === conversationUuid).length >= atLeast);
    await new Promise((resolve) => setTimeout(resolve, 1500));
  };
  const statusEventsOf = (conversationUuid: string) => storedCollection('timeline_events').countDocuments({ conversation_id: conversationUuid, kind: 'event', event_type: 'inbox_status_changed' });

  it('assigns one employee once when ten requests for it arrive together', async () => {
    const answers = await Promise.allSettled(
      Array.from({ length: 10 }, () => grpc.assignAiEmployee({ caller: caller(), conversation: reference(conversations.sameTarget), ai_employee: { uuid: ai.max }, policy: CONFLICT })),
    );
    const changed = answers.filter((answer) => answer.status === 'fulfilled' && !answer.value.noop);
    const conflicts = answers.filter((answer): answer is PromiseRejectedResult => answer.status === 'rejected');
    expect(changed).toHaveLength(1);
    expect(conflicts.map((answer) => (answer.reason as { code?: string }).code)).toEqual(Array(9).fill('AI_EMPLOYEE_ALREADY_ASSIGNED'));
    expect((await storedConversation(conversations.sameTarget))?.ai_employee_id).toBe(ai.max);
    await settled(conversations.sameTarget, 1);
    expect(changesOf(conversations.sameTarget, 'conversation.assignment_changed')).toEqual([{ from: null, to: ai.max }]);
  });

  it('orders ten mixed owner changes into one history and ends with its last owner', async () => {
    const requests = Array.from({ length: 10 }, (_, index) =>
      index % 2 === 0
        ? grpc.assignAiEmployee({ caller: caller(), conversation: reference(conversations.mixed), ai_employee: { uuid: index % 4 === 0 ? ai.max : ai.eva }, policy: NOOP })
        : grpc.unassignAi({ caller: caller(), conversation: reference(conversations.mixed), hand_to_human: false }),
    );
    const answers = await Promise.all(requests);
    const changers = answers.filter((answer) => !answer.noop).length;
    expect(changers).toBeGreaterThanOrEqual(1);
    await settled(conversations.mixed, changers);
    // Each real change answered noop false and was broadcast once, replacing another owner.
    const changes = changesOf(conversations.mixed, 'conversation.assignment_changed');
    expect(changes).toHaveLength(changers);
    for (const change of changes) expect(change.to).not.toBe(change.from);
    // They chain from the first owner to the last: every owner is left as often as it is taken,
    // but the first (left once more) and the last (taken once more).
    const last = (await storedConversation(conversations.mixed))?.ai_employee_id ?? null;
    const balance = new Map<string | null, number>();
    for (const change of changes) {
      balance.set(change.from, (balance.get(change.from) ?? 0) + 1);
      balance.set(change.to, (balance.get(change.to) ?? 0) - 1);
    }
    balance.set(ai.eva, (balance.get(ai.eva) ?? 0) - 1);
    balance.set(last, (balance.get(last) ?? 0) + 1);
    expect([...balance.values()].every((count) => count === 0)).toBe(true);
  });

  it('hands a conversation to a human once when ten handoffs arrive together: one change, one timeline event, one broadcast', async () => {
    const answers = await Promise.all(
      Array.from({ length: 10 }, () => grpc.unassignAi({ caller: caller(), conversation: reference(conversations.handoff), hand_to_human: true })),
    );
    expect(answers.every((answer) => answer.inbox_status === 'pending')).toBe(true);
    // A handoff is two changes (owner, status); each was made by one request, maybe not the same one.
    const changers = answers.filter((answer) => !answer.noop).length;
    expect(changers).toBeGreaterThanOrEqual(1);
    expect(changers).toBeLessThanOrEqual(2);
    expect(await storedConversation(conversations.handoff)).toMatchObject({ ai_employee_id: null, inbox_status: 'pending', pending_reason: 'human_handoff' });
    expect(await statusEventsOf(conversations.handoff)).toBe(1);
    await settled(conversations.handoff, 2);
    expect(changesOf(conversations.handoff, 'conversation.assignment_changed')).toEqual([{ from: ai.eva, to: null }]);
    expect(changesOf(conversations.handoff, 'conversation.inbox_status_changed')).toEqual([{ from: 'resolved', to: 'pending' }]);
  });

  it('records one inbox-status change, one timeline event and one broadcast when ten escalations race', async () => {
    await Promise.all(
      Array.from({ length: 10 }, (_, index) =>
        index % 2 === 0 ? grpc.escalate({ caller: caller(), conversation_uuid: conversations.pending, pending_reason: 'action_set_failed' }) : grpc.escalate({ caller: caller(), conversation_uuid: conversations.pending, pending_reason: 'marked_pending' }),
      ),
    );
    expect(await statusEventsOf(conversations.pending)).toBe(1);
    await settled(conversations.pending, 1);
    expect(changesOf(conversations.pending, 'conversation.inbox_status_changed')).toEqual([{ from: 'resolved', to: 'pending' }]);
  });
});
