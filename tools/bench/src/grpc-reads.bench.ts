import { parseArgs } from 'node:util';
import { connectMongo, disconnectMongo } from '@cmsg/dal';
import { type ClientSecurity, ConversationsServiceClient, HealthCheckResponse_ServingStatus, HealthClient, createServiceClient } from '@cmsg/proto';
import { AppProcess, TestPki, contactSeed, createTestBusinessIn, freePort } from '@cmsg/testing';
import { LocalStack } from '@cmsg/testing/local-stack';
import type { BenchmarkModule } from './benchmark-module';
import { runCallLoad } from './grpc-load';
import { formatFigures, type LoadFigures, runLoad } from './load-test';

/**
 * Issue 15 benchmark: one read (GetConversationStatus) called directly over gRPC, in plaintext and
 * over mutual TLS, beside the same read through the REST gateway (POST /conversation/status).
 */
export const grpcReadsBenchmark: BenchmarkModule = {
  summary: 'GetConversationStatus over gRPC (plaintext, mutual TLS) vs POST /conversation/status through the gateway',
  options: ['--duration <seconds per run> (default 10)', '--connections <concurrent callers> (default 10)'],
  run: async (argv, figures) => {
    const { values } = parseArgs({ args: argv, options: { duration: { type: 'string' }, connections: { type: 'string' } }, strict: true });
    const options = figures.parameters({ durationSeconds: positive(values.duration, 10, 'duration'), connections: positive(values.connections, 10, 'connections') });
    for (const row of await runGrpcReads(options)) figures.recordLoad(row.name, row.figures);
  },
};

type Row = { name: string; figures: LoadFigures };

async function runGrpcReads(options: { durationSeconds: number; connections: number }): Promise<Row[]> {
  // The product limit is 60 requests/minute per token; a load test measures throughput instead.
  const stack = new LocalStack({ env: { RATE_LIMIT_PER_MINUTE: '100000000', LOG_LEVEL: 'warn' } });
  const description = await stack.start();
  const pki = new TestPki();
  const authority = pki.authority('bench');
  const serverCertificate = authority.issue('conversations');
  const clientCertificate = authority.issue('bench');
  const tlsAddress = `127.0.0.1:${await freePort()}`;
  // The same service on the same database, served over mutual TLS (production's setting).
  const tlsConversations = new AppProcess(
    'conversations-tls',
    'conversations',
    {
      ...description.env,
      GRPC_ADDRESS: tlsAddress,
      GRPC_ALLOW_INSECURE: 'false',
      GRPC_TLS_CERT: serverCertificate.cert,
      GRPC_TLS_KEY: serverCertificate.key,
      GRPC_TLS_CA: authority.caFile,
    },
    description.logDir,
  );
  tlsConversations.start();
  const closers: (() => void)[] = [];
  try {
    await connectMongo(description.env['MONGODB_URI']!);
    const business = await createTestBusinessIn(description, (seed) => void contactSeed(seed));
    const conversation = { uuid: business.seed.contacts![0]!.conversation!.uuid! };
    const tls: ClientSecurity = { tls: { ca: authority.ca, cert: clientCertificate.certPem, key: clientCertificate.keyPem } };
    await waitUntilServing(tlsAddress, tls);

    const read = (address: string, security: ClientSecurity) => {
      const client = createServiceClient(ConversationsServiceClient, { address, security, deadlineMs: 10_000 });
      closers.push(client.close);
      const request = { caller: { business_id: business.businessId, token_uuid: business.tokenUuid }, conversation };
      return () => client.rpc.getConversationStatus(request);
    };
    const load = { concurrency: options.connections, durationSeconds: options.durationSeconds };
    console.log(`\ngrpc reads: GetConversationStatus, ${options.connections} concurrent callers, ${options.durationSeconds} s per run`);
    const rows: Row[] = [];
    const plaintextRead = read(description.env['CONVERSATIONS_GRPC_ADDRESS']!, { insecure: true });
    const tlsRead = read(tlsAddress, tls);
    // One call each first: connections and TLS handshakes are not part of the figures.
    await Promise.all([plaintextRead(), tlsRead()]);
    rows.push({ name: 'grpc_plaintext', figures: await runCallLoad(plaintextRead, load) });
    rows.push({ name: 'grpc_mutual_tls', figures: await runCallLoad(tlsRead, load) });
    rows.push({
      name: 'rest_gateway',
      figures: await runLoad({
        url: `${description.gatewayUrls[0]}/v1/${business.slug}/conversation/status`,
        method: 'POST',
        headers: { authorization: `Bearer ${business.token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ conversation }),
        connections: options.connections,
        duration: options.durationSeconds,
      }),
    });
    const labels: Record<string, string> = {
      grpc_plaintext: 'gRPC direct, plaintext',
      grpc_mutual_tls: 'gRPC direct, mutual TLS',
      rest_gateway: 'REST gateway (HTTP -> gRPC plaintext)',
    };
    for (const row of rows) console.log(formatFigures(labels[row.name]!, row.figures));
    return rows;
  } finally {
    for (const close of closers) close();
    await disconnectMongo();
    await tlsConversations.stop();
    await stack.stop();
    pki.dispose();
  }
}

async function waitUntilServing(address: string, security: ClientSecurity): Promise<void> {
  const health = createServiceClient(HealthClient, { address, security, deadlineMs: 2_000 });
  try {
    for (let attempt = 0; attempt < 120; attempt += 1) {
      const answer = await health.rpc.check({ service: '' }).catch(() => undefined);
      if (answer?.status === HealthCheckResponse_ServingStatus.SERVING) return;
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
    throw new Error(`${address} never became SERVING`);
  } finally {
    health.close();
  }
}

function positive(raw: string | undefined, fallback: number, name: string): number {
  if (raw === undefined) return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 1) throw new Error(`--${name} must be a positive integer, got ${raw}`);
  return value;
}
