import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import * as grpc from '@grpc/grpc-js';
import { type ClientSecurity, ConversationsServiceClient, HealthCheckResponse_ServingStatus, HealthClient, createServiceClient } from '@cmsg/proto';
import { AppProcess, type TestBusiness, TestPki, createTestBusiness, eventually, freePort, integrationStack } from '@cmsg/testing';
import { waitForReady } from '@cmsg/testing/local-stack';
import { ReflectionClient } from './reflection-client';

/**
 * Caller authentication of the gRPC services (issue 15): a conversations service started as in
 * production (TLS with client certificates from one CA, plus per-caller tokens for callers behind
 * a mesh, no GRPC_ALLOW_INSECURE), and a gateway calling it with its own client certificate.
 * Every certificate is made at test time.
 */
describe('gRPC caller authentication (mutual TLS and caller tokens)', () => {
  const pki = new TestPki();
  const trusted = pki.authority('cmsg');
  const rogue = pki.authority('rogue');
  const serverCertificate = trusted.issue('conversations');
  const gatewayCertificate = trusted.issue('gateway');
  const workerCertificate = trusted.issue('reporting-worker');
  const rogueCertificate = rogue.issue('reporting-worker');
  const meshToken = randomBytes(24).toString('hex');
  const processes: AppProcess[] = [];
  let address: string;
  let business: TestBusiness;
  let conversations: AppProcess;

  const productionGrpcEnv = (certificate: { cert: string; key: string }) => ({
    GRPC_ALLOW_INSECURE: 'false',
    GRPC_TLS_CERT: certificate.cert,
    GRPC_TLS_KEY: certificate.key,
    GRPC_TLS_CA: trusted.caFile,
  });

  const listChannels = async (security: ClientSecurity) => {
    const client = createServiceClient(ConversationsServiceClient, { address, security, deadlineMs: 10_000 });
    try {
      return await client.rpc.listChannels({ caller: { business_id: business.businessId, token_uuid: '' } });
    } finally {
      client.close();
    }
  };
  const rawCall = (credentials: grpc.ChannelCredentials, metadata = new grpc.Metadata()) =>
    new Promise<grpc.ServiceError | null>((resolve) => {
      const client = new ConversationsServiceClient(address, credentials);
      client.listChannels({ caller: { business_id: business.businessId, token_uuid: '' } }, metadata, { deadline: Date.now() + 10_000 }, (error) => {
        client.close();
        resolve(error);
      });
    });
  const serverLog = () => readFileSync(conversations.logFile, 'utf8');

  beforeAll(async () => {
    business = await createTestBusiness();
    const stack = integrationStack();
    address = `127.0.0.1:${await freePort()}`;
    conversations = new AppProcess(
      'conversations-mtls',
      'conversations',
      { ...stack.env, ...productionGrpcEnv(serverCertificate), GRPC_ADDRESS: address, GRPC_AUTH_TOKENS: `mesh-caller:${meshToken}` },
      stack.logDir,
    );
    processes.push(conversations);
    conversations.start();
    const health = createServiceClient(HealthClient, { address, security: { tls: { ca: trusted.ca } }, deadlineMs: 2_000 });
    try {
      await eventually(
        () => health.rpc.check({ service: '' }).catch(() => undefined),
        (answer) => answer?.status === HealthCheckResponse_ServingStatus.SERVING,
        60_000,
      );
    } finally {
      health.close();
    }
  }, 90_000);

  afterAll(async () => {
    for (const appProcess of processes) await appProcess.stop();
    pki.dispose();
  });

  it('refuses a call without a client certificate or token: UNAUTHENTICATED', async () => {
    const error = await rawCall(grpc.credentials.createSsl(trusted.ca));
    expect({ code: error?.code, details: error?.details }).toEqual({
      code: grpc.status.UNAUTHENTICATED,
      details: 'A client certificate signed by the trusted CA, or a caller token (authorization: Bearer <token>), is required.',
    });
  });

  it('refuses a client certificate from another CA: UNAUTHENTICATED', async () => {
    const error = await rawCall(grpc.credentials.createSsl(trusted.ca, rogueCertificate.keyPem, rogueCertificate.certPem));
    expect(error?.code).toBe(grpc.status.UNAUTHENTICATED);
  });

  it('refuses a wrong caller token: UNAUTHENTICATED', async () => {
    const metadata = new grpc.Metadata();
    metadata.set('authorization', `Bearer ${randomBytes(24).toString('hex')}`);
    const error = await rawCall(grpc.credentials.createSsl(trusted.ca), metadata);
    expect({ code: error?.code, details: error?.details }).toEqual({ code: grpc.status.UNAUTHENTICATED, details: 'The caller token is not one this service accepts.' });
  });

  it('refuses a plaintext client: the server speaks TLS only', async () => {
    const error = await rawCall(grpc.credentials.createInsecure());
    expect(error?.code).toBe(grpc.status.UNAVAILABLE);
  });

  it('serves a client certificate from the trusted CA and logs the caller by its CN', async () => {
    const answer = await listChannels({ tls: { ca: trusted.ca, cert: workerCertificate.certPem, key: workerCertificate.keyPem } });
    expect(answer.items.map((channel) => channel.public_key)).toEqual([business.channelKey]);
    await eventually(async () => serverLog(), (log) => /"caller":"reporting-worker"[^\n]*"grpc_method":"listChannels","code":"OK"/.test(log));
  });

  it('serves a caller token where TLS ends at a mesh, and logs the token name', async () => {
    const answer = await listChannels({ tls: { ca: trusted.ca }, token: meshToken });
    expect(answer.items).toHaveLength(1);
    await eventually(async () => serverLog(), (log) => /"caller":"mesh-caller"[^\n]*"grpc_method":"listChannels","code":"OK"/.test(log));
  });

  it('keeps health checks open (probes carry no credentials) and reflection off in production', async () => {
    const reflection = new ReflectionClient(address, grpc.credentials.createSsl(trusted.ca, workerCertificate.keyPem, workerCertificate.certPem));
    try {
      await expect(reflection.listServices()).rejects.toMatchObject({ code: grpc.status.UNIMPLEMENTED });
    } finally {
      reflection.close();
    }
    expect(serverLog()).toMatch(/"tls":true,"client_certificates":true,"token_callers":\["mesh-caller"\],"unauthenticated_calls_allowed":false,"reflection":false/);
  });

  it('lets a gateway with its own client certificate reach the service (mutual TLS on both sides)', async () => {
    const stack = integrationStack();
    const port = await freePort();
    const gateway = new AppProcess(
      'gateway-mtls',
      'gateway',
      { ...stack.env, ...productionGrpcEnv(gatewayCertificate), PORT: String(port), CONVERSATIONS_GRPC_ADDRESS: address },
      stack.logDir,
    );
    processes.push(gateway);
    gateway.start();
    await waitForReady(`http://127.0.0.1:${port}/healthz`, 60_000);
    const response = await fetch(`http://127.0.0.1:${port}/v1/${business.slug}/channels`, { headers: { authorization: `Bearer ${business.token}` } });
    expect(response.status).toBe(200);
    expect(((await response.json()) as { items: unknown[] }).items).toHaveLength(1);
    await eventually(async () => serverLog(), (log) => /"caller":"gateway"[^\n]*"grpc_method":"listChannels","code":"OK"/.test(log));
  }, 90_000);

  it('refuses to start a service without TLS or tokens unless GRPC_ALLOW_INSECURE=true', async () => {
    const stack = integrationStack();
    const unprotected = new AppProcess(
      'conversations-unprotected',
      'conversations',
      { ...stack.env, GRPC_ALLOW_INSECURE: 'false', GRPC_ADDRESS: `127.0.0.1:${await freePort()}` },
      stack.logDir,
    );
    processes.push(unprotected);
    unprotected.start();
    expect(await unprotected.exited()).toBe(1);
    expect(unprotected.logTail(5)).toContain('gRPC callers would not be authenticated: set GRPC_TLS_CERT, GRPC_TLS_KEY and GRPC_TLS_CA (mutual TLS) or GRPC_AUTH_TOKENS');
  }, 60_000);

  it('says so in a warning line when a local stack runs plaintext without credentials', () => {
    const localLog = readFileSync(path.join(integrationStack().logDir, 'conversations.log'), 'utf8');
    expect(localLog).toContain('"level":"warn"');
    expect(localLog).toMatch(/"level":"warn"[^\n]*"msg":"GRPC_ALLOW_INSECURE=true: calls without a client certificate or token are accepted; local use only"/);
  });
});
