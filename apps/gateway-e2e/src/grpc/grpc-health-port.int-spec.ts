import { readFileSync } from 'node:fs';
import * as grpc from '@grpc/grpc-js';
import { service as healthServiceDefinition } from 'grpc-health-check';
import { ConversationsServiceClient, HealthCheckResponse_ServingStatus, HealthClient } from '@cmsg/proto';
import { AppProcess, type TestBusiness, TestPki, createTestBusiness, eventually, freePort, integrationStack } from '@cmsg/testing';
import { ReflectionClient } from './reflection-client';

const CONVERSATIONS_SERVICES = [
  'cmsg.conversations.v1.ConversationsService',
  'cmsg.conversations.v1.ConversationActionsService',
  'cmsg.conversations.v1.BroadcastsService',
  'cmsg.files.v1.FilesService',
  'cmsg.webhooks.v1.WebhookEndpointsService',
];
const plaintext = grpc.credentials.createInsecure();

/**
 * The plaintext health port (GRPC_HEALTH_ADDRESS) of a service whose main port requires mutual TLS,
 * as it runs in Kubernetes: the kubelet's `grpc:` probe speaks neither TLS nor any credential, so it
 * needs a port that answers grpc.health.v1 as the main port does, and serves nothing else.
 */
describe('gRPC health port beside a mutual-TLS main port', () => {
  const pki = new TestPki();
  const authority = pki.authority('cmsg');
  const serverCertificate = authority.issue('conversations');
  const callerCertificate = authority.issue('reporting-worker');
  const callerTls = grpc.credentials.createSsl(authority.ca, callerCertificate.keyPem, callerCertificate.certPem);
  let mainAddress: string;
  let healthAddress: string;
  let business: TestBusiness;
  let conversations: AppProcess;

  const check = (address: string, credentials: grpc.ChannelCredentials, service: string) =>
    new Promise<{ status?: HealthCheckResponse_ServingStatus; code?: grpc.status }>((resolve) => {
      const client = new HealthClient(address, credentials);
      client.check({ service }, new grpc.Metadata(), { deadline: Date.now() + 5_000 }, (error, response) => {
        client.close();
        resolve(error ? { code: error.code } : { status: response.status });
      });
    });

  beforeAll(async () => {
    business = await createTestBusiness();
    const stack = integrationStack();
    mainAddress = `127.0.0.1:${await freePort()}`;
    healthAddress = `127.0.0.1:${await freePort()}`;
    conversations = new AppProcess(
      'conversations-health-port',
      'conversations',
      {
        ...stack.env,
        GRPC_ALLOW_INSECURE: 'false',
        GRPC_TLS_CERT: serverCertificate.cert,
        GRPC_TLS_KEY: serverCertificate.key,
        GRPC_TLS_CA: authority.caFile,
        // On for the main port, so that its absence on the health port is the health port's doing.
        GRPC_REFLECTION: 'true',
        GRPC_ADDRESS: mainAddress,
        GRPC_HEALTH_ADDRESS: healthAddress,
      },
      stack.logDir,
    );
    conversations.start();
    await eventually(
      () => check(healthAddress, plaintext, ''),
      (answer) => answer.status === HealthCheckResponse_ServingStatus.SERVING,
      60_000,
    );
  }, 90_000);

  afterAll(async () => {
    await conversations.stop();
    pki.dispose();
  });

  it('answers Check in plaintext without credentials, as the main port does over TLS, for the server and each service', async () => {
    for (const service of ['', ...CONVERSATIONS_SERVICES, 'cmsg.unknown.v1.Nothing']) {
      const onHealthPort = await check(healthAddress, plaintext, service);
      const onMainPort = await check(mainAddress, grpc.credentials.createSsl(authority.ca), service);
      expect({ service, ...onHealthPort }).toEqual({ service, ...onMainPort });
    }
    expect(await check(healthAddress, plaintext, CONVERSATIONS_SERVICES[0]!)).toEqual({ status: HealthCheckResponse_ServingStatus.SERVING });
    expect(await check(healthAddress, plaintext, 'cmsg.unknown.v1.Nothing')).toEqual({ code: grpc.status.NOT_FOUND });
    expect(await check(mainAddress, plaintext, '')).toEqual({ code: grpc.status.UNAVAILABLE });
  });

  it('serves no business method there, although the main port serves it to an authenticated caller', async () => {
    const listChannels = (address: string, credentials: grpc.ChannelCredentials) =>
      new Promise<grpc.status>((resolve) => {
        const client = new ConversationsServiceClient(address, credentials);
        client.listChannels({ caller: { business_id: business.businessId, token_uuid: '' } }, new grpc.Metadata(), { deadline: Date.now() + 10_000 }, (error) => {
          client.close();
          resolve(error ? error.code : grpc.status.OK);
        });
      });
    expect(await listChannels(healthAddress, plaintext)).toBe(grpc.status.UNIMPLEMENTED);
    expect(await listChannels(mainAddress, callerTls)).toBe(grpc.status.OK);
  });

  it('serves no reflection there, although the main port has it on', async () => {
    const onHealthPort = new ReflectionClient(healthAddress, plaintext);
    const onMainPort = new ReflectionClient(mainAddress, callerTls);
    try {
      await expect(onHealthPort.listServices()).rejects.toMatchObject({ code: grpc.status.UNIMPLEMENTED });
      expect(await onMainPort.listServices()).toEqual([...CONVERSATIONS_SERVICES, 'grpc.health.v1.Health']);
    } finally {
      onHealthPort.close();
      onMainPort.close();
    }
  });

  it('turns NOT_SERVING there as the drain starts on SIGTERM, before the port closes', async () => {
    // The generated HealthClient has Check only; grpc-health-check's definition has Watch (statuses as enum names).
    const HealthWatchClient = grpc.makeGenericClientConstructor(healthServiceDefinition, 'Health');
    const client = new HealthWatchClient(healthAddress, plaintext) as unknown as grpc.Client & {
      Watch(request: { service: string }): grpc.ClientReadableStream<{ status: string }>;
    };
    const statuses: string[] = [];
    const stream = client.Watch({ service: '' });
    const ended = new Promise<void>((resolve) => {
      stream.on('data', (answer: { status: string }) => statuses.push(answer.status));
      stream.on('error', () => resolve());
      stream.on('end', () => resolve());
    });
    try {
      await eventually(async () => statuses, (seen) => seen.includes('SERVING'));
      // The runner installs its SIGTERM drain once the background work (here the chat-inbound
      // consumer) has started; a signal before that ends the process without a drain.
      await eventually(
        async () => readFileSync(conversations.logFile, 'utf8'),
        (log) => log.includes('"msg":"chat inbound consumer started"'),
        60_000,
      );
      await conversations.stop('SIGTERM');
      await ended;
    } finally {
      client.close();
    }
    expect(statuses).toEqual(['SERVING', 'NOT_SERVING']);
  }, 60_000);
});
