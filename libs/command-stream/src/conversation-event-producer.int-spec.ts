import { randomUUID } from 'node:crypto';
import type { ConversationEventEnvelope } from '@cmsg/conversation-commands';
import { createLogger, runWithRequestContext } from '@cmsg/platform';
import { createKafka } from '@cmsg/platform/kafka';
import { ROOT_CONTEXT, context, propagation, trace } from '@opentelemetry/api';
import { InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
import type { Admin, Consumer, IHeaders, Kafka, Producer } from 'kafkajs';
import { kafkaConversationEventBus } from './conversation-event-producer';
import { ensureTopics } from './topic-setup';

/** The `conversation-events` bus on a real broker, with a real tracer: one produce request per turn, each message in its caller's trace. */
describe('kafkaConversationEventBus', () => {
  const exporter = new InMemorySpanExporter();
  const provider = new NodeTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  const tracer = provider.getTracer('conversation-event-producer.int-spec');
  let kafka: Kafka;
  let admin: Admin;
  let producer: Producer;
  let topic: string;
  const consumers: Consumer[] = [];
  let produceRequests = 0;

  beforeAll(async () => {
    provider.register();
    kafka = createKafka(`conversation-event-producer-int-${process.pid}`, (process.env['KAFKA_BROKERS'] ?? '127.0.0.1:19092').split(','), createLogger('int-spec', 'silent'));
    admin = kafka.admin();
    producer = kafka.producer();
    producer.on(producer.events.REQUEST, (event) => {
      if (event.payload.apiName === 'Produce') produceRequests += 1;
    });
    await Promise.all([admin.connect(), producer.connect()]);
    topic = `test-${randomUUID().slice(0, 8)}-conversation-events`;
    await ensureTopics(kafka, [topic], { partitions: 2 });
  }, 60_000);

  afterAll(async () => {
    await Promise.all(consumers.map((consumer) => consumer.disconnect()));
    await admin.deleteTopics({ topics: [topic] }).catch(() => undefined);
    await Promise.all([admin.disconnect(), producer.disconnect()]);
    await provider.shutdown();
    trace.disable();
    context.disable();
    propagation.disable();
  });

  it('sends the publishes of one turn in one request, each message with the trace and request id of its own caller', async () => {
    const bus = kafkaConversationEventBus(producer, topic);
    const callers = ['first', 'second', 'third'].map((name) => ({ name, conversation: randomUUID(), span: tracer.startSpan(`caller ${name}`, {}, ROOT_CONTEXT), requestId: randomUUID() }));
    const before = produceRequests;
    await Promise.all(
      callers.map((caller) =>
        context.with(trace.setSpan(ROOT_CONTEXT, caller.span), () => runWithRequestContext({ requestId: caller.requestId }, () => bus.publish(caller.conversation, envelopeOf(caller.name)))),
      ),
    );
    expect(produceRequests - before).toBe(1);

    const received = await consume(callers.length);
    const producerSpans = exporter.getFinishedSpans().filter((span) => span.name === `send ${topic}`);
    for (const caller of callers) {
      const message = received.find((candidate) => candidate.key === caller.conversation);
      const producerSpan = producerSpans.find((span) => span.attributes['messaging.kafka.message.key'] === caller.conversation);
      expect({ caller: caller.name, value: message?.value }).toEqual({ caller: caller.name, value: envelopeOf(caller.name) });
      // The producer span is the caller's child, and the message carries it as its parent.
      expect({ caller: caller.name, parent: producerSpan?.parentSpanContext?.spanId, trace: producerSpan?.spanContext().traceId }).toEqual({
        caller: caller.name,
        parent: caller.span.spanContext().spanId,
        trace: caller.span.spanContext().traceId,
      });
      expect({ caller: caller.name, traceparent: message?.headers['traceparent'], requestId: message?.headers['x-request-id'] }).toEqual({
        caller: caller.name,
        traceparent: `00-${caller.span.spanContext().traceId}-${producerSpan?.spanContext().spanId}-01`,
        requestId: caller.requestId,
      });
    }
    // No other span made for these messages (the kafkajs instrumentation's would be, were it to run unsuppressed).
    expect(producerSpans).toHaveLength(callers.length);
  }, 60_000);

  it('sends the publishes of different turns in requests of their own', async () => {
    const bus = kafkaConversationEventBus(producer, topic);
    const before = produceRequests;
    await bus.publish(randomUUID(), envelopeOf('alone'));
    await bus.publish(randomUUID(), envelopeOf('next turn'));
    expect(produceRequests - before).toBe(2);
  });

  it('fails every publish of the turn with SERVICE_UNAVAILABLE, and marks each producer span failed, when Kafka is out of reach', async () => {
    const unconnected = kafka.producer({ retry: { retries: 0 } });
    const bus = kafkaConversationEventBus(unconnected, topic);
    const conversations: string[] = [randomUUID(), randomUUID()];
    const results = await Promise.allSettled(conversations.map((conversation) => bus.publish(conversation, envelopeOf('refused'))));
    expect(results.map((result) => (result.status === 'rejected' ? (result.reason as { code?: string }).code : result.status))).toEqual(['SERVICE_UNAVAILABLE', 'SERVICE_UNAVAILABLE']);
    const spans = exporter.getFinishedSpans().filter((span) => conversations.includes(String(span.attributes['messaging.kafka.message.key'])));
    expect(spans.map((span) => span.status.code)).toEqual([2, 2]);
  });

  /** The topic's first `count` messages, from its beginning. */
  async function consume(count: number): Promise<{ key: string; value: unknown; headers: Record<string, string> }[]> {
    const consumer = kafka.consumer({ groupId: `conversation-event-producer-int-${randomUUID()}` });
    consumers.push(consumer);
    await consumer.connect();
    await consumer.subscribe({ topic, fromBeginning: true });
    const received: { key: string; value: unknown; headers: Record<string, string> }[] = [];
    const all = new Promise<void>((resolve) => {
      void consumer.run({
        eachMessage: async ({ message }) => {
          received.push({ key: message.key?.toString() ?? '', value: JSON.parse(message.value?.toString() ?? 'null'), headers: headersOf(message.headers) });
          if (received.length === count) resolve();
        },
      });
    });
    await all;
    return received;
  }
});

function envelopeOf(name: string): ConversationEventEnvelope {
  return { id: `event-${name}`, type: 'conversation.tags_changed', created_at: '2026-12-01T00:00:00.000Z', data: { name } };
}

function headersOf(headers: IHeaders | undefined): Record<string, string> {
  return Object.fromEntries(Object.entries(headers ?? {}).map(([name, value]) => [name, String(value)]));
}
