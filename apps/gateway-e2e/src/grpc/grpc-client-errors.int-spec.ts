import { randomUUID } from 'node:crypto';
import { CatalogError } from '@cmsg/errors';
import { ConversationsServiceClient, type ConversationReference, createServiceClient } from '@cmsg/proto';
import { type TestBusiness, contactSeed, createTestBusiness, freePort } from '@cmsg/testing';
import { LOCAL_PLAINTEXT, stackGrpcClient } from '@cmsg/testing/grpc';

/**
 * The published client helper gives an internal service the same errors a REST client gets: the
 * catalog code, message and HTTP status, read from the google.rpc.Status details.
 */
describe('gRPC client helper: errors as the catalog says', () => {
  const client = stackGrpcClient(ConversationsServiceClient, 'conversations', { deadlineMs: 10_000 });
  let business: TestBusiness;

  beforeAll(async () => {
    business = await createTestBusiness((seed) => void contactSeed(seed));
  });

  afterAll(() => client.close());

  async function overGrpc(conversation: ConversationReference) {
    const error = await client.rpc.getConversationStatus({ caller: { business_id: business.businessId, token_uuid: business.tokenUuid }, conversation }).then(
      () => undefined,
      (failure: unknown) => failure,
    );
    expect(error).toBeInstanceOf(CatalogError);
    const { code, message, httpStatus } = error as CatalogError;
    return { code, message, status: httpStatus };
  }

  async function overRest(conversation: ConversationReference) {
    const response = await business.api.post('/conversation/status', { conversation });
    return { ...(response.body as { code: string; message: string }), status: response.status };
  }

  it.each<[string, () => ConversationReference]>([
    ['CONVERSATION_NOT_FOUND', () => ({ uuid: randomUUID() })],
    ['CHANNEL_NOT_FOUND', () => ({ phone: '+52 1 55 0000 0000', channel: `no-such-channel-${randomUUID()}` })],
  ])('%s: the same {code, message, HTTP status} as through the REST gateway', async (code, reference) => {
    const conversation = reference();
    const grpcError = await overGrpc(conversation);
    expect(grpcError).toEqual(await overRest(conversation));
    expect(grpcError.code).toBe(code);
  });

  it('turns an unreachable service into SERVICE_UNAVAILABLE (503), after the read retries', async () => {
    const nobody = createServiceClient(ConversationsServiceClient, { address: `127.0.0.1:${await freePort()}`, security: LOCAL_PLAINTEXT, deadlineMs: 10_000 });
    try {
      await expect(nobody.rpc.listChannels({ caller: { business_id: business.businessId, token_uuid: '' } })).rejects.toMatchObject({
        code: 'SERVICE_UNAVAILABLE',
        httpStatus: 503,
      });
    } finally {
      nobody.close();
    }
  });
});
