import * as grpc from '@grpc/grpc-js';
import { type TestBusiness, createTestBusiness } from '@cmsg/testing';
import { stackServiceAddress } from '@cmsg/testing/grpc';
import { ReflectionClient } from './reflection-client';

/** Server reflection as grpcurl and Postman use it: discover, then call with nothing but what was discovered. */
describe('gRPC server reflection (local stack: on by default)', () => {
  let business: TestBusiness;
  const clients: ReflectionClient[] = [];
  const reflectionOf = (address: string) => {
    const client = new ReflectionClient(address);
    clients.push(client);
    return client;
  };

  beforeAll(async () => {
    business = await createTestBusiness();
  });

  afterAll(() => {
    for (const client of clients) client.close();
  });

  it('lists exactly the services each process offers, health included', async () => {
    const listings = {
      conversations: await reflectionOf(stackServiceAddress('conversations')).listServices(),
      scheduler: await reflectionOf(stackServiceAddress('scheduler')).listServices(),
      actions: await reflectionOf(stackServiceAddress('actions')).listServices(),
    };
    process.stdout.write(`reflection listing as the test saw it:\n${JSON.stringify(listings, null, 2)}\n`);
    expect(listings).toEqual({
      conversations: [
        'cmsg.conversations.v1.ConversationsService',
        'cmsg.conversations.v1.ConversationActionsService',
        'cmsg.conversations.v1.BroadcastsService',
        'cmsg.files.v1.FilesService',
        'cmsg.webhooks.v1.WebhookEndpointsService',
        'grpc.health.v1.Health',
      ],
      scheduler: ['cmsg.scheduler.v1.SchedulerService', 'grpc.health.v1.Health'],
      actions: ['cmsg.actions.v1.ActionsService', 'grpc.health.v1.Health'],
    });
  });

  it('calls ListChannels with a client built only from the descriptors reflection returned', async () => {
    const reflection = reflectionOf(stackServiceAddress('conversations'));
    const client = await reflection.dynamicClient('cmsg.conversations.v1.ConversationsService');
    try {
      const answer = await new Promise<unknown>((resolve, reject) =>
        (client['ListChannels'] as (request: object, options: grpc.CallOptions, callback: grpc.requestCallback<unknown>) => void).call(
          client,
          { caller: { business_id: business.businessId } },
          { deadline: Date.now() + 10_000 },
          (error, response) => (error ? reject(error) : resolve(response)),
        ),
      );
      expect(answer).toEqual({
        items: [{ public_key: business.channelKey, name: 'Main line', phone: expect.any(String), status: expect.any(String), max_messages_per_second: 80, messaging_limit: 'unlimited' }],
      });
    } finally {
      client.close();
    }
  });
});
