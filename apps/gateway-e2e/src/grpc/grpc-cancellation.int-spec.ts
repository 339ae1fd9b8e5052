import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import * as grpc from '@grpc/grpc-js';
import { ActionsServiceClient } from '@cmsg/proto';
import {
  FakeAiRemote,
  type TestBusiness,
  connectToStackDatabase,
  contactSeed,
  createTestBusiness,
  eventually,
  integrationFakes,
  integrationStack,
  storedCollection,
} from '@cmsg/testing';
import { stackGrpcClient } from '@cmsg/testing/grpc';

/** The log lines one request left in one app of the integration stack. */
function logLinesOf(app: string, requestId: string): { grpc_method?: string; code?: string; msg: string }[] {
  return readFileSync(path.join(integrationStack().logDir, `${app}.log`), 'utf8')
    .split('\n')
    .filter((line) => line.includes(`"request_id":"${requestId}"`))
    .map((line) => JSON.parse(line) as { grpc_method?: string; code?: string; msg: string });
}

/**
 * A call its caller cancels stops its server-side work: AiAssistance on the actions-runner waits
 * for the AI provider (held back by the fake), the caller cancels meanwhile, and the steps after
 * the answer (AddNote and ChargeAiWallet on the conversations service) never start.
 */
describe('gRPC cancellation', () => {
  const ai = new FakeAiRemote(integrationFakes().aiBaseUrl);
  const model = `gpt-cancel-${randomUUID()}`;
  const employee = randomUUID();
  const conversation = randomUUID();
  let business: TestBusiness;

  beforeAll(async () => {
    await connectToStackDatabase();
    business = await createTestBusiness((seed) => {
      seed.ai_employees = [{ uuid: employee, name: 'Slow', model, wallet_tokens: 10_000 }];
      contactSeed(seed, { conversation: { uuid: conversation, messages: [] } });
    });
  });

  it('stops AiAssistance before its next outgoing step once the caller cancels', async () => {
    await ai.addRules({ match: { model }, delay_ms: 3_000, times: 1 });
    const client = stackGrpcClient(ActionsServiceClient, 'actions', { deadlineMs: 60_000 });
    const requestId = randomUUID();
    const metadata = client.callMetadata();
    metadata.set('x-request-id', requestId);
    let settled = false;
    let call: grpc.ClientUnaryCall | undefined;
    const outcome = new Promise<grpc.ServiceError | null>((resolve) => {
      call = client.raw.aiAssistance(
        { caller: { business_id: business.businessId, token_uuid: business.tokenUuid }, conversation: { uuid: conversation }, ai_employee: { uuid: employee }, prompt: 'Summarise' },
        metadata,
        client.callOptions(60_000),
        (error) => {
          settled = true;
          resolve(error);
        },
      );
    });
    try {
      // The AI provider has the request: the call is in the middle of its work.
      await eventually(() => ai.requests({ model }), (requests) => requests.length === 1);
      expect(settled).toBe(false);
      call!.cancel();
      expect((await outcome)?.code).toBe(grpc.status.CANCELLED);

      // Once the AI answers, the runner sees the call is over and stops there.
      await eventually(
        async () => logLinesOf('actions-runner', requestId),
        (lines) => lines.some((line) => line.grpc_method === 'aiAssistance' && line.code === 'CANCELLED'),
      );
      const conversationsCalls = logLinesOf('conversations', requestId).flatMap((line) => (line.grpc_method ? [line.grpc_method] : []));
      expect(conversationsCalls).toEqual(expect.arrayContaining(['getConversationContext', 'resolveAiEmployee', 'getRecentTimeline']));
      expect(conversationsCalls).not.toContain('addNote');
      expect(conversationsCalls).not.toContain('chargeAiWallet');
      expect(await storedCollection('timeline_events').countDocuments({ conversation_id: conversation, kind: 'note' })).toBe(0);
    } finally {
      client.close();
    }
  });
});
