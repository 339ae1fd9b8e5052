import { randomUUID } from 'node:crypto';
import { ConversationStateLogModel, TimelineEventModel } from '@cmsg/dal';
import { AlreadyInStatePolicy, type ConversationActionsServiceClient, type PromiseClient } from '@cmsg/proto';
import { KafkaTopicProbe, type TestBusiness, contactSeed, createTestBusiness } from '@cmsg/testing';
import { callerOf, conversationActionsClient, storedConversation } from './conversation-actions.fixtures';

/**
 * Owner and inbox-status changes arriving at the same moment, against the real FerretDB (whose
 * compare-and-set updates let several callers "win"): each real change is recorded once, in one
 * order, with one timeline event and one broadcast, and the conversation ends with the owner and
 * status of the last recorded change.
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
  const logOf = (conversationUuid: string, field: 'owner' | 'inbox_status') =>
    ConversationStateLogModel.find({ conversation_id: conversationUuid, field }).sort({ seq: 1 }).lean<{ seq: number; value: string | null; previous: string | null }[]>();
  const statusEventsOf = (conversationUuid: string) => TimelineEventModel.countDocuments({ conversation_id: conversationUuid, kind: 'inbox_status_changed' });

  it('assigns one employee once when ten requests for it arrive together', async () => {
    const answers = await Promise.allSettled(
      Array.from({ length: 10 }, () => grpc.assignAiEmployee({ caller: caller(), conversation: reference(conversations.sameTarget), ai_employee: { uuid: ai.max }, policy: CONFLICT })),
    );
    const changed = answers.filter((answer) => answer.status === 'fulfilled' && !answer.value.noop);
    const conflicts = answers.filter((answer): answer is PromiseRejectedResult => answer.status === 'rejected');
    expect(changed).toHaveLength(1);
    expect(conflicts.map((answer) => (answer.reason as { code?: string }).code)).toEqual(Array(9).fill('AI_EMPLOYEE_ALREADY_ASSIGNED'));
    expect(await logOf(conversations.sameTarget, 'owner')).toMatchObject([{ seq: 1, value: ai.max, previous: null }]);
    expect((await storedConversation(conversations.sameTarget))?.ai_employee_id).toBe(ai.max);
  });

  it('orders ten mixed owner changes into one history and ends with its last owner', async () => {
    const requests = Array.from({ length: 10 }, (_, index) =>
      index % 2 === 0
        ? grpc.assignAiEmployee({ caller: caller(), conversation: reference(conversations.mixed), ai_employee: { uuid: index % 4 === 0 ? ai.max : ai.eva }, policy: NOOP })
        : grpc.unassignAi({ caller: caller(), conversation: reference(conversations.mixed), hand_to_human: false }),
    );
    const answers = await Promise.all(requests);
    const log = await logOf(conversations.mixed, 'owner');
    // Each real change answered noop false, and is one entry; each entry replaces the one before it.
    expect(answers.filter((answer) => !answer.noop)).toHaveLength(log.length);
    expect(log.length).toBeGreaterThanOrEqual(1);
    let owner: string | null = ai.eva;
    for (const [index, entry] of log.entries()) {
      expect(entry).toMatchObject({ seq: index + 1, previous: owner });
      expect(entry.value).not.toBe(owner);
      owner = entry.value;
    }
    expect((await storedConversation(conversations.mixed))?.ai_employee_id ?? null).toBe(owner);
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
    expect(await logOf(conversations.handoff, 'owner')).toMatchObject([{ seq: 1, value: null, previous: ai.eva }]);
    expect(await logOf(conversations.handoff, 'inbox_status')).toMatchObject([{ seq: 1, value: 'pending', previous: 'resolved' }]);
    expect(await storedConversation(conversations.handoff)).toMatchObject({ ai_employee_id: null, inbox_status: 'pending', pending_reason: 'human_handoff' });
    expect(await statusEventsOf(conversations.handoff)).toBe(1);
    await probe.waitFor((message) => message.key === conversations.handoff);
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(probe.matching((message) => message.key === conversations.handoff)).toHaveLength(1);
  });

  it('records one inbox-status change, one timeline event and one broadcast when ten escalations race', async () => {
    await Promise.all(
      Array.from({ length: 10 }, (_, index) =>
        index % 2 === 0 ? grpc.escalate({ caller: caller(), conversation_uuid: conversations.pending, pending_reason: 'action_set_failed' }) : grpc.escalate({ caller: caller(), conversation_uuid: conversations.pending, pending_reason: 'marked_pending' }),
      ),
    );
    const log = await logOf(conversations.pending, 'inbox_status');
    expect(log).toMatchObject([{ seq: 1, value: 'pending', previous: 'resolved' }]);
    expect(await statusEventsOf(conversations.pending)).toBe(1);
    await probe.waitFor((message) => message.key === conversations.pending);
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(probe.matching((message) => message.key === conversations.pending)).toHaveLength(1);
  });
});
