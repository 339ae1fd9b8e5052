import { randomUUID } from 'node:crypto';
import { AiEmployeeRepository, type BusinessScope, TimelineEventRepository, businessScope } from '@cmsg/dal';
import { AlreadyInStatePolicy, type ConversationActionsServiceClient, type PromiseClient } from '@cmsg/proto';
import { type TestBusiness, contactSeed, createTestBusiness, minutesAgo, storedCollection } from '@cmsg/testing';
import { KafkaTopicProbe } from '@cmsg/testing/kafka';
import { callerOf, conversationActionsClient, seedPendingSchedule, storedConversation } from './conversation-actions.fixtures';

/** An AI employee's wallet as the guards see it: its balance, and blocked when blocked explicitly or empty. */
async function walletState(scope: BusinessScope, employeeId: string): Promise<{ balance: number; blocked: boolean } | null> {
  const employee = await new AiEmployeeRepository().findById(scope, employeeId);
  return employee ? { balance: employee.wallet_tokens, blocked: employee.wallet_blocked || employee.wallet_tokens <= 0 } : null;
}

/**
 * The ConversationActionsService as the actions-runner calls it: NOOP policy (SPEC 4.3 rule 5),
 * escalation and the read models of AI runs. The public endpoints only ever use CONFLICT.
 */
describe('ConversationActionsService over gRPC', () => {
  let business: TestBusiness;
  let foreignBusiness: TestBusiness;
  let grpc: PromiseClient<ConversationActionsServiceClient>;
  let close: () => void;
  let probe: KafkaTopicProbe;
  const NOOP = AlreadyInStatePolicy.ALREADY_IN_STATE_NOOP;
  const tag = { uuid: randomUUID(), name: 'VIP', color: '#f00' };
  const otherTag = { uuid: randomUUID(), name: 'Lead', color: '' };
  const mailbox = randomUUID();
  const ai = { max: randomUUID(), eva: randomUUID(), poor: randomUUID(), busy: randomUUID(), three: randomUUID() };
  const foreignAi = randomUUID();
  const contactPhone = '+52 1 55 7777 0001';
  const conversations = {
    noop: randomUUID(),
    escalate: randomUUID(),
    context: randomUUID(),
    tester: randomUUID(),
    timeline: randomUUID(),
  };

  beforeAll(async () => {
    foreignBusiness = await createTestBusiness((seed) => {
      seed.ai_employees = [{ uuid: foreignAi, name: 'Foreign', model: 'gpt-test', wallet_tokens: 100 }];
    });
    business = await createTestBusiness((seed) => {
      seed.vision_wallet_tokens = 750;
      seed.tags = [tag, otherTag];
      seed.mailbox_categories = [{ uuid: randomUUID(), name: 'Sales', mailboxes: [{ uuid: mailbox, name: 'Inbox' }] }];
      seed.ai_employees = [
        { uuid: ai.max, name: 'Max', model: 'gpt-test', instructions: 'Be brief.', wallet_tokens: 100 },
        { uuid: ai.eva, name: 'Eva', model: 'gpt-test', wallet_tokens: 100 },
        { uuid: ai.poor, name: 'Poor', model: 'gpt-test', wallet_tokens: 10 },
        { uuid: ai.busy, name: 'Busy', model: 'gpt-test', wallet_tokens: 1000 },
        { uuid: ai.three, name: 'Three', model: 'gpt-test', wallet_tokens: 30 },
      ];
      contactSeed(seed, { conversation: { uuid: conversations.noop, tags: [tag.uuid], mailbox, ai_employee: ai.max } });
      contactSeed(seed, { conversation: { uuid: conversations.escalate, inbox_status: 'resolved' } });
      contactSeed(seed, {
        phone: contactPhone,
        conversation: { uuid: conversations.context, ai_employee: ai.max, messages: [{ is_from_customer: true, body: 'hello', created_at: minutesAgo(23 * 60) }] },
      });
      contactSeed(seed, {
        is_tester: true,
        phone: null,
        chat_user_id: `tester-${randomUUID()}`,
        conversation: { uuid: conversations.tester, messages: [{ is_from_customer: true, body: 'test', created_at: minutesAgo(23 * 60) }] },
      });
      contactSeed(seed, {
        conversation: {
          uuid: conversations.timeline,
          messages: [
            { is_from_customer: true, body: 'first', created_at: minutesAgo(50) },
            { is_from_customer: false, body: 'second', created_at: minutesAgo(40) },
            { is_from_customer: true, body: '', content_type: 'image', created_at: minutesAgo(20) },
          ],
        },
      });
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
  const walletOf = (employee: string) => walletState(businessScope(business.businessId), employee);
  const reference = (uuid: string) => ({ uuid });

  describe('already-in-state policy', () => {
    it('NOOP: tags already there (or already absent) are successful no-ops', async () => {
      const assigned = await grpc.assignTags({ caller: caller(), conversation: reference(conversations.noop), tags: [{ uuid: tag.uuid }], policy: NOOP });
      expect(assigned.results).toEqual([{ requested: { uuid: tag.uuid }, tag, status: 'noop', error: undefined }]);
      expect(assigned.tags).toEqual([tag]);
      const removed = await grpc.removeTags({ caller: caller(), conversation: reference(conversations.noop), tags: [{ name: 'lead' }], policy: NOOP });
      expect(removed.results.map((result) => result.status)).toEqual(['noop']);
      expect((await storedConversation(conversations.noop))?.tag_ids).toEqual([tag.uuid]);
    });

    it('NOOP: the same mailbox and the same AI employee are no-ops', async () => {
      const box = await grpc.assignMailbox({ caller: caller(), conversation: reference(conversations.noop), mailbox: { uuid: mailbox }, category: undefined, policy: NOOP });
      expect(box).toEqual({ conversation: { uuid: conversations.noop }, mailbox: { uuid: mailbox, name: 'Inbox' }, noop: true });
      const employee = await grpc.assignAiEmployee({ caller: caller(), conversation: reference(conversations.noop), ai_employee: { name: 'max' }, policy: NOOP });
      expect(employee).toEqual({ conversation: { uuid: conversations.noop }, ai_employee: { uuid: ai.max, name: 'Max' }, noop: true });
    });

    it('NOOP still fails what is not an already-holding state', async () => {
      const result = await grpc.assignTags({ caller: caller(), conversation: reference(conversations.noop), tags: [{ name: 'ghost' }], policy: NOOP });
      expect(result.results[0]).toMatchObject({ status: 'failed', error: { code: 'TAG_NOT_FOUND' } });
      await expect(grpc.assignAiEmployee({ caller: caller(), conversation: reference(conversations.noop), ai_employee: { uuid: foreignAi }, policy: NOOP })).rejects.toMatchObject({
        code: 'AI_EMPLOYEE_NOT_FOUND',
      });
    });

    it('an unset policy is CONFLICT', async () => {
      const result = await grpc.assignTags({
        caller: caller(),
        conversation: reference(conversations.noop),
        tags: [{ uuid: tag.uuid }],
        policy: AlreadyInStatePolicy.ALREADY_IN_STATE_POLICY_UNSPECIFIED,
      });
      expect(result.results[0]).toMatchObject({ status: 'failed', error: { code: 'TAG_ALREADY_ASSIGNED' } });
      await expect(
        grpc.assignMailbox({ caller: caller(), conversation: reference(conversations.noop), mailbox: { name: 'inbox' }, category: undefined, policy: AlreadyInStatePolicy.ALREADY_IN_STATE_CONFLICT }),
      ).rejects.toMatchObject({ code: 'MAILBOX_ALREADY_ASSIGNED', httpStatus: 409 });
    });

    it('unassign of a human-owned conversation is a no-op', async () => {
      const first = await grpc.unassignAi({ caller: caller(), conversation: reference(conversations.escalate), hand_to_human: false });
      expect(first).toEqual({ conversation: { uuid: conversations.escalate }, inbox_status: 'resolved', noop: true });
    });
  });

  describe('Escalate', () => {
    it('sets pending with the reason, by the system, broadcasting the change', async () => {
      const response = await grpc.escalate({ caller: caller(), conversation_uuid: conversations.escalate, pending_reason: 'action_set_failed' });
      expect(response).toEqual({ conversation: { uuid: conversations.escalate }, inbox_status: 'pending' });
      expect(await storedConversation(conversations.escalate)).toMatchObject({ inbox_status: 'pending', pending_reason: 'action_set_failed' });
      const event = await probe.waitFor((message) => message.key === conversations.escalate);
      expect(event.value.data).toMatchObject({ to: 'pending', pending_reason: 'action_set_failed', actor: { type: 'system', uuid: null } });
    });

    // An already pending conversation (and its reason) is left as it is:
    // libs/conversations-domain/src/escalation/escalate.usecase.spec.ts and inbox/set-inbox-status.usecase.spec.ts.

    it('is CONVERSATION_NOT_FOUND for a conversation of another business', async () => {
      const other = await createTestBusiness();
      await expect(grpc.escalate({ caller: callerOf(other), conversation_uuid: conversations.escalate, pending_reason: 'x' })).rejects.toMatchObject({ code: 'CONVERSATION_NOT_FOUND' });
    });
  });

  describe('ResolveConversation', () => {
    it('answers the uuid a reference names, by uuid and by phone', async () => {
      await expect(grpc.resolveConversation({ caller: caller(), conversation: reference(conversations.context) })).resolves.toEqual({ uuid: conversations.context });
      await expect(grpc.resolveConversation({ caller: caller(), conversation: { phone: contactPhone } })).resolves.toEqual({ uuid: conversations.context });
    });

    it("is CONVERSATION_NOT_FOUND for another business's conversation or an unknown phone, INVALID_REQUEST without a reference", async () => {
      await expect(grpc.resolveConversation({ caller: callerOf(foreignBusiness), conversation: reference(conversations.context) })).rejects.toMatchObject({ code: 'CONVERSATION_NOT_FOUND' });
      await expect(grpc.resolveConversation({ caller: caller(), conversation: { phone: '+52 1 55 0000 0000' } })).rejects.toMatchObject({ code: 'CONVERSATION_NOT_FOUND' });
      await expect(grpc.resolveConversation({ caller: caller(), conversation: undefined })).rejects.toMatchObject({ code: 'INVALID_REQUEST' });
    });
  });

  describe('GetConversationContext', () => {
    it('describes the conversation at its own now', async () => {
      const schedule = await seedPendingSchedule(business, conversations.context, { executor_kind: 'ai_employee', ai_employee_id: ai.max });
      const before = Date.now();
      const context = await grpc.getConversationContext({ caller: caller(), conversation: { phone: contactPhone } });
      expect(context).toMatchObject({
        uuid: conversations.context,
        is_tester: false,
        window_status: 'open',
        ai_employee_uuid: ai.max,
        inbox_status: 'resolved',
        media_awaiting_transcription: 0,
        vision_wallet_tokens: 750,
        pending_schedule_uuid: schedule,
        contact_phone: '+5215577770001',
      });
      expect(Date.parse(context.now)).toBeGreaterThanOrEqual(before - 1000);
    });

    it("uses the tester's virtual clock for tester conversations", async () => {
      expect((await grpc.getConversationContext({ caller: caller(), conversation: reference(conversations.tester) })).window_status).toBe('open');
      await storedCollection('businesses').updateOne({ _id: business.businessId }, { $set: { tester_clock_offset_ms: 2 * 3_600_000 } });
      const context = await grpc.getConversationContext({ caller: caller(), conversation: reference(conversations.tester) });
      expect(context).toMatchObject({ is_tester: true, window_status: 'closed', ai_employee_uuid: undefined, contact_phone: undefined, pending_schedule_uuid: undefined });
      expect(Date.parse(context.now) - Date.now()).toBeGreaterThan(3_600_000);
    });
  });

  describe('GetRecentTimeline', () => {
    beforeAll(async () => {
      await new TimelineEventRepository().insertIfAbsent(businessScope(business.businessId), {
        id: randomUUID(),
        conversationId: conversations.timeline,
        kind: 'note',
        body: 'VIP customer',
        author: { type: 'api_token', uuid: business.tokenUuid },
        createdAt: new Date(Date.now() - 30 * 60_000),
      });
    });

    it('merges messages and notes oldest first, within the limit', async () => {
      const all = await grpc.getRecentTimeline({ caller: caller(), conversation_uuid: conversations.timeline, limit: 0 });
      expect(all.entries.map((entry) => [entry.role, entry.text])).toEqual([
        ['customer', 'first'],
        ['business', 'second'],
        ['note', 'VIP customer'],
        ['customer', '[image, not transcribed]'],
      ]);
      const lastTwo = await grpc.getRecentTimeline({ caller: caller(), conversation_uuid: conversations.timeline, limit: 2 });
      expect(lastTwo.entries.map((entry) => entry.text)).toEqual(['VIP customer', '[image, not transcribed]']);
      expect(Date.parse(lastTwo.entries[0]!.at)).toBeLessThan(Date.parse(lastTwo.entries[1]!.at));
    });

    it('is CONVERSATION_NOT_FOUND for an unknown conversation', async () => {
      await expect(grpc.getRecentTimeline({ caller: caller(), conversation_uuid: randomUUID(), limit: 10 })).rejects.toMatchObject({ code: 'CONVERSATION_NOT_FOUND' });
    });
  });

  describe('ResolveAiEmployee', () => {
    it('resolves by uuid and by name', async () => {
      const expected = { uuid: ai.max, name: 'Max', model: 'gpt-test', instructions: 'Be brief.', wallet_tokens: 100, wallet_blocked: false };
      expect(await grpc.resolveAiEmployee({ caller: caller(), ai_employee: { uuid: ai.max } })).toEqual(expected);
      expect(await grpc.resolveAiEmployee({ caller: caller(), ai_employee: { name: ' MAX ' } })).toEqual(expected);
    });

    it('is AI_EMPLOYEE_NOT_FOUND for unknown or foreign employees, INVALID_REQUEST without a reference', async () => {
      for (const ref of [{ uuid: randomUUID() }, { uuid: foreignAi }, { name: 'Foreign' }]) {
        await expect(grpc.resolveAiEmployee({ caller: caller(), ai_employee: ref })).rejects.toMatchObject({ code: 'AI_EMPLOYEE_NOT_FOUND' });
      }
      await expect(grpc.resolveAiEmployee({ caller: caller(), ai_employee: {} })).rejects.toMatchObject({ code: 'INVALID_REQUEST' });
    });

    it('is AMBIGUOUS_AI_EMPLOYEE for a name shared by several employees', async () => {
      const twins = await createTestBusiness((seed) => {
        seed.ai_employees = [
          { uuid: randomUUID(), name: 'Twin', model: 'm' },
          { uuid: randomUUID(), name: 'twin', model: 'm' },
        ];
      });
      await expect(grpc.resolveAiEmployee({ caller: callerOf(twins), ai_employee: { name: 'TWIN' } })).rejects.toMatchObject({ code: 'AMBIGUOUS_AI_EMPLOYEE' });
    });
  });

  describe('ChargeAiWallet', () => {
    it('charges once per operation id', async () => {
      const operation = randomUUID();
      expect(await grpc.chargeAiWallet({ caller: caller(), ai_employee_uuid: ai.eva, tokens: 30, operation_id: operation })).toEqual({ wallet_tokens: 70 });
      expect(await grpc.chargeAiWallet({ caller: caller(), ai_employee_uuid: ai.eva, tokens: 30, operation_id: operation })).toEqual({ wallet_tokens: 70 });
      expect(await grpc.chargeAiWallet({ caller: caller(), ai_employee_uuid: ai.eva, tokens: 5.5, operation_id: randomUUID() })).toEqual({ wallet_tokens: 64.5 });
      expect(await walletOf(ai.eva)).toEqual({ balance: 64.5, blocked: false });
    });

    it('applies concurrent retries of one operation once', async () => {
      const operation = randomUUID();
      const before = (await walletOf(ai.max))!.balance;
      await Promise.all(Array.from({ length: 5 }, () => grpc.chargeAiWallet({ caller: caller(), ai_employee_uuid: ai.max, tokens: 7, operation_id: operation })));
      expect((await walletOf(ai.max))!.balance).toBe(before - 7);
    });

    it('takes every one of 20 concurrent charges exactly once', async () => {
      const operations = Array.from({ length: 20 }, () => randomUUID());
      const charge = (operation_id: string) => grpc.chargeAiWallet({ caller: caller(), ai_employee_uuid: ai.busy, tokens: 10, operation_id });
      await Promise.all(operations.map(charge));
      expect(await walletOf(ai.busy)).toEqual({ balance: 800, blocked: false });
      // Retried all at once, again twice each: nothing more is taken.
      await Promise.all([...operations, ...operations].map(charge));
      expect(await grpc.resolveAiEmployee({ caller: caller(), ai_employee: { uuid: ai.busy } })).toMatchObject({ wallet_tokens: 800, wallet_blocked: false });
    });

    it('accepts exactly the charges an open wallet has room for when they arrive together', async () => {
      const outcomes = await Promise.allSettled(
        Array.from({ length: 10 }, () => grpc.chargeAiWallet({ caller: caller(), ai_employee_uuid: ai.three, tokens: 10, operation_id: randomUUID() })),
      );
      const accepted = outcomes.filter((outcome) => outcome.status === 'fulfilled');
      const refused = outcomes.filter((outcome): outcome is PromiseRejectedResult => outcome.status === 'rejected');
      expect(accepted).toHaveLength(3);
      expect(refused.map((outcome) => (outcome.reason as { code?: string }).code)).toEqual(Array(7).fill('WALLET_BLOCKED'));
      expect(await walletOf(ai.three)).toEqual({ balance: 0, blocked: true });
    });

    it('takes what is left of a balance short of a charge, records the rest as unbilled, and refuses further charges', async () => {
      expect(await grpc.chargeAiWallet({ caller: caller(), ai_employee_uuid: ai.poor, tokens: 25, operation_id: randomUUID() })).toEqual({ wallet_tokens: 0 });
      expect(await grpc.resolveAiEmployee({ caller: caller(), ai_employee: { uuid: ai.poor } })).toMatchObject({ wallet_tokens: 0, wallet_blocked: true });
      expect(await new AiEmployeeRepository().findById(businessScope(business.businessId), ai.poor)).toMatchObject({ wallet_tokens: 0, wallet_unbilled_tokens: 15 });
      await expect(grpc.chargeAiWallet({ caller: caller(), ai_employee_uuid: ai.poor, tokens: 1, operation_id: randomUUID() })).rejects.toMatchObject({ code: 'WALLET_BLOCKED' });
    });

    it('refuses unknown or foreign employees and invalid charges', async () => {
      for (const uuid of [randomUUID(), foreignAi]) {
        await expect(grpc.chargeAiWallet({ caller: caller(), ai_employee_uuid: uuid, tokens: 1, operation_id: randomUUID() })).rejects.toMatchObject({ code: 'AI_EMPLOYEE_NOT_FOUND' });
      }
      for (const [tokens, operation] of [
        [-1, randomUUID()],
        [1, ''],
      ] as const) {
        await expect(grpc.chargeAiWallet({ caller: caller(), ai_employee_uuid: ai.eva, tokens, operation_id: operation })).rejects.toMatchObject({ code: 'INVALID_REQUEST' });
      }
      expect(await walletState(businessScope(foreignBusiness.businessId), foreignAi)).toEqual({ balance: 100, blocked: false });
    });
  });
});
