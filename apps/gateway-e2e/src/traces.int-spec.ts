import { randomBytes, randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { connectMongo } from '@cmsg/dal';
import {
  type RunningFakes,
  type StackDescription,
  type TestBusiness,
  contactSeed,
  createTestBusinessIn,
  dropConnectedDatabase,
  minutesAgo,
  startFakes,
} from '@cmsg/testing';
import { LocalStack } from '@cmsg/testing/local-stack';

/**
 * Traces end to end (issue 14): a stack of its own exports to a local OTLP/HTTP receiver; one
 * action group must be one trace from the gateway's HTTP span through the gRPC calls, the Kafka
 * produce and consume, every action's calls to the conversations service, to the Cloud API call,
 * with the request id on every span and in every log line of the group.
 */

/** OTLP/HTTP JSON as the exporter sends it (only what the test reads). */
interface OtlpAttribute {
  key: string;
  value: { stringValue?: string; intValue?: string | number; boolValue?: boolean };
}
interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  attributes?: OtlpAttribute[];
}
interface ReceivedSpan {
  service: string;
  name: string;
  kind: 'internal' | 'server' | 'client' | 'producer' | 'consumer';
  traceId: string;
  spanId: string;
  parentSpanId: string | undefined;
  attributes: Record<string, string | number | boolean | undefined>;
}

const KINDS = ['unspecified', 'internal', 'server', 'client', 'producer', 'consumer'] as const;

function startOtlpReceiver(): Promise<{ url: string; spans: ReceivedSpan[]; server: Server }> {
  const spans: ReceivedSpan[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      if (request.url === '/v1/traces' && (request.headers['content-type'] ?? '').includes('json')) {
        const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as {
          resourceSpans?: { resource?: { attributes?: OtlpAttribute[] }; scopeSpans?: { spans?: OtlpSpan[] }[] }[];
        };
        for (const resourceSpans of body.resourceSpans ?? []) {
          const service = String(attributesOf(resourceSpans.resource?.attributes)['service.name']);
          for (const scope of resourceSpans.scopeSpans ?? []) {
            for (const span of scope.spans ?? []) {
              spans.push({
                service,
                name: span.name,
                kind: KINDS[span.kind] === 'unspecified' ? 'internal' : (KINDS[span.kind] as ReceivedSpan['kind']),
                traceId: span.traceId,
                spanId: span.spanId,
                parentSpanId: span.parentSpanId || undefined,
                attributes: attributesOf(span.attributes),
              });
            }
          }
        }
      }
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end('{}');
    });
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, spans, server })));
}

function attributesOf(attributes: OtlpAttribute[] | undefined): ReceivedSpan['attributes'] {
  return Object.fromEntries((attributes ?? []).map(({ key, value }) => [key, value.stringValue ?? (value.intValue !== undefined ? Number(value.intValue) : value.boolValue)]));
}

async function until(condition: () => boolean | Promise<boolean>, timeoutMs: number, what: string | (() => string)): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${typeof what === 'string' ? what : what()}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

describe('one trace for one action group (a stack exporting to a local OTLP receiver)', () => {
  let receiver: Awaited<ReturnType<typeof startOtlpReceiver>>;
  let fakes: RunningFakes;
  let stack: LocalStack;
  let description: StackDescription;
  let business: TestBusiness;
  let conversation = '';

  beforeAll(async () => {
    receiver = await startOtlpReceiver();
    fakes = await startFakes();
    stack = new LocalStack({
      build: false,
      env: { ...fakes.env, OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url, OTEL_BSP_SCHEDULE_DELAY: '200' },
      fakes: { chatApiBaseUrl: fakes.chatApiBaseUrl, aiBaseUrl: fakes.aiBaseUrl },
    });
    description = await stack.start();
    await connectMongo(description.env['MONGODB_URI']!);
    business = await createTestBusinessIn(description, (seed) => {
      // The customer wrote five minutes ago: the 24 h window is open for a text.
      conversation = randomUUID();
      contactSeed(seed, { conversation: { uuid: conversation, messages: [{ uuid: randomUUID(), is_from_customer: true, body: 'Hola', content_type: 'text', created_at: minutesAgo(5) }] } });
    });
  }, 180_000);

  afterAll(async () => {
    await dropConnectedDatabase();
    await stack?.stop();
    await fakes?.stop();
    receiver?.server.close();
  });

  it('covers the gateway, the gRPC calls, the Kafka produce and consume, every action and the Cloud API call', async () => {
    const requestId = randomUUID();
    const traceId = randomBytes(16).toString('hex');
    const submitted = await business.api.post(
      '/conversation/actions',
      {
        conversation: { uuid: conversation },
        actions: [
          { type: 'context_note', note: 'traced' },
          { type: 'send_message', text: 'Hola, te escribimos.' },
          { type: 'mark_pending' },
        ],
      },
      { 'x-request-id': requestId, traceparent: `00-${traceId}-${randomBytes(8).toString('hex')}-01` },
    );
    expect(submitted.status).toBe(202);
    const group = submitted.body.action_group.uuid as string;
    await until(async () => (await business.api.get(`/action-groups/${group}`)).body.status !== 'processing', 60_000, 'the group to finish');
    const finished = await business.api.get(`/action-groups/${group}`);
    expect(finished.body.actions.map((action: { status: string }) => action.status)).toEqual(['succeeded', 'succeeded', 'succeeded']);

    const inTrace = () => receiver.spans.filter((span) => span.traceId === traceId);
    const cloudApiHost = new URL(fakes.chatApiBaseUrl).host;
    const isCloudApiCall = (span: ReceivedSpan) =>
      span.service === 'conversations' && span.kind === 'client' && String(span.attributes['url.full'] ?? span.attributes['http.url'] ?? '').includes(cloudApiHost);
    await until(() => inTrace().some(isCloudApiCall) && inTrace().filter((span) => span.service === 'actions-runner' && span.kind === 'consumer').length > 0, 30_000, () =>
      `the spans of the trace; received ${receiver.spans.length} spans, in the trace:\n${inTrace()
        .map((span) => `${span.service} ${span.kind} ${span.name} ${JSON.stringify(span.attributes)}`)
        .join('\n')}`,
    );
    const rpc = (span: ReceivedSpan) => `${String(span.attributes['rpc.service'] ?? '')}/${String(span.attributes['rpc.method'] ?? '')}`;
    // The batch processor exports every 200 ms, and parents end (so arrive) last: wait for every span
    // the checks below look for, rather than a fixed while that a loaded machine's exporters can outrun.
    // The calls of the actions: the note and the status change are each an ApplyChanges of one (the send stands between them).
    const callsOfTheActions: Record<string, number> = { ApplyChanges: 2, SendMessage: 1 };
    const count = (arrived: ReceivedSpan[], service: string, kind: string, method?: string) =>
      arrived.filter((span) => span.service === service && span.kind === kind && (method === undefined || rpc(span).endsWith(`/${method}`))).length;
    const allArrived = () => {
      const arrived = inTrace();
      const has = (service: string, kind: string, method?: string) => count(arrived, service, kind, method) > 0;
      return (
        has('gateway', 'server') &&
        has('gateway', 'client', 'SubmitActionGroup') &&
        has('actions-runner', 'server', 'SubmitActionGroup') &&
        has('actions-runner', 'producer') &&
        Object.entries(callsOfTheActions).every(([method, calls]) => count(arrived, 'actions-runner', 'client', method) >= calls && count(arrived, 'conversations', 'server', method) >= calls) &&
        arrived.some((span) => span.service === 'scheduler' && span.kind === 'consumer' && isConversationEvents(span))
      );
    };
    await until(allArrived, 30_000, () => `every span the checks need; in the trace:\n${inTrace().map((span) => `${span.service} ${span.kind} ${span.name}`).join('\n')}`);
    const spans = inTrace();
    const summary = spans.map((span) => `${span.service} ${span.kind} ${span.name}`);

    const gatewayServer = spans.find((span) => span.service === 'gateway' && span.kind === 'server');
    expect({ gatewayServer: gatewayServer?.name, summary }).toEqual({ gatewayServer: expect.stringContaining('POST'), summary });
    expect(gatewayServer?.parentSpanId).toBeDefined(); // the client's traceparent is its parent
    expect(spans.filter((span) => span.service === 'gateway' && span.kind === 'client').map(rpc)).toContain('cmsg.actions.v1.ActionsService/SubmitActionGroup');
    expect(spans.filter((span) => span.service === 'actions-runner' && span.kind === 'server').map(rpc)).toContain('cmsg.actions.v1.ActionsService/SubmitActionGroup');
    expect(spans.some((span) => span.service === 'actions-runner' && span.kind === 'producer' && span.attributes['messaging.system'] === 'kafka')).toBe(true);
    const consumers = spans.filter((span) => span.service === 'actions-runner' && span.kind === 'consumer' && /conversation-commands$/.test(String(span.attributes['messaging.destination.name'])));
    expect(consumers).not.toHaveLength(0);

    // Every action: a call from the runner to the conversations service, served there.
    for (const [method, calls] of Object.entries(callsOfTheActions)) {
      expect({ method, runner: count(spans, 'actions-runner', 'client', method), conversations: count(spans, 'conversations', 'server', method), summary }).toEqual({
        method,
        runner: calls,
        conversations: calls,
        summary,
      });
    }
    expect(spans.filter(isCloudApiCall)).toHaveLength(1);

    // The status change's conversation-events message: produced in its ApplyChanges (one producer
    // span, the bus's own, though its request may carry other callers' messages) and consumed by
    // the scheduler as that span's child.
    const byId = new Map(spans.map((span) => [span.spanId, span]));
    const eventProducers = spans.filter((span) => span.kind === 'producer' && isConversationEvents(span));
    expect({ producers: eventProducers.map((span) => span.service), summary }).toEqual({ producers: ['conversations'], summary });
    const ancestors = (span: ReceivedSpan | undefined): ReceivedSpan[] => (span?.parentSpanId && byId.has(span.parentSpanId) ? [byId.get(span.parentSpanId)!, ...ancestors(byId.get(span.parentSpanId))] : []);
    expect(ancestors(eventProducers[0]).some((span) => span.service === 'conversations' && span.kind === 'server' && rpc(span).endsWith('/ApplyChanges'))).toBe(true);
    const eventConsumers = spans.filter((span) => span.service === 'scheduler' && span.kind === 'consumer' && isConversationEvents(span));
    expect(eventConsumers.map((span) => span.parentSpanId)).toEqual([eventProducers[0]!.spanId]);

    // The request id is on every span of the trace.
    const withoutRequestId = spans.filter((span) => span.attributes['cmsg.request_id'] !== requestId).map((span) => `${span.service} ${span.kind} ${span.name}`);
    expect(withoutRequestId).toEqual([]);

    process.stdout.write(`trace ${traceId} as the receiver got it (${spans.length} spans):\n${traceTree(spans)}\n`);

    // And in every log line of the group's trace, in every app it went through (the GETs that
    // polled the group are requests of their own, with ids of their own).
    for (const app of ['gateway-1', 'actions-runner', 'conversations']) {
      const lines = readFileSync(path.join(description.logDir, `${app}.log`), 'utf8')
        .split('\n')
        .filter((line) => line.includes(`"trace_id":"${traceId}"`))
        .map((line) => JSON.parse(line) as { request_id?: string; msg: string });
      expect({ app, lines: lines.length > 0 }).toEqual({ app, lines: true });
      expect(lines.filter((line) => line.request_id !== requestId)).toEqual([]);
    }
  });
});

function isConversationEvents(span: ReceivedSpan): boolean {
  return /conversation-events$/.test(String(span.attributes['messaging.destination.name']));
}

/** The spans as an indented tree by parent, each `service kind name`, children in start order as received. */
function traceTree(spans: ReceivedSpan[]): string {
  const ids = new Set(spans.map((span) => span.spanId));
  const childrenOf = (parent: string | undefined) => spans.filter((span) => (parent === undefined ? !span.parentSpanId || !ids.has(span.parentSpanId) : span.parentSpanId === parent));
  const lines: string[] = [];
  const walk = (span: ReceivedSpan, depth: number) => {
    lines.push(`${'  '.repeat(depth)}${span.service} ${span.kind} ${span.name}`);
    for (const child of childrenOf(span.spanId)) walk(child, depth + 1);
  };
  for (const root of childrenOf(undefined)) walk(root, 0);
  return lines.join('\n');
}
