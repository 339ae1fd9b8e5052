import type { ConversationEventEnvelope } from '@cmsg/conversation-commands';
import { TurnBatches } from '@cmsg/platform';
import { sendKeyedMessages, withRequestIdHeader } from '@cmsg/platform/kafka';
import { SpanKind, SpanStatusCode, context, propagation, trace } from '@opentelemetry/api';
import { suppressTracing } from '@opentelemetry/core';
import type { Message, Producer } from 'kafkajs';

const tracer = trace.getTracer('cmsg-command-stream');

/** More in one turn (an audience file's recordMany) go out in requests of this many, one after the other. */
const MESSAGES_PER_REQUEST = 500;

/**
 * The `conversation-events` topic (key = conversation uuid, so one conversation's events keep their
 * order): the Kafka side of the event recorder's ConversationEventBus port (@cmsg/events).
 *
 * The publishes of one turn of the event loop are one produce request (a group commit, as the
 * recorder's event inserts are). Each message still belongs to its own caller's trace: its producer
 * span is started here, in the caller's context, and its trace context written into the message's
 * headers then; the request itself is sent with tracing suppressed, so that the kafkajs
 * instrumentation, which would start every message's span in the context of whichever caller came
 * first in the turn and overwrite the headers with it, leaves both alone.
 */
export function kafkaConversationEventBus(producer: Producer, topic: string): { publish(conversationId: string, message: ConversationEventEnvelope): Promise<void> } {
  const requests = new TurnBatches<Message, void>(async (messages) => {
    await context.with(suppressTracing(context.active()), async () => {
      for (let start = 0; start < messages.length; start += MESSAGES_PER_REQUEST) {
        await sendKeyedMessages(producer, topic, messages.slice(start, start + MESSAGES_PER_REQUEST));
      }
    });
    return messages.map(() => undefined);
  });
  return {
    publish: async (conversationId, envelope) => {
      const span = tracer.startSpan(`send ${topic}`, {
        kind: SpanKind.PRODUCER,
        attributes: { 'messaging.system': 'kafka', 'messaging.destination.name': topic, 'messaging.kafka.message.key': conversationId, 'messaging.operation.name': 'send', 'messaging.operation.type': 'send' },
      });
      const headers: Record<string, string> = {};
      propagation.inject(trace.setSpan(context.active(), span), headers);
      try {
        await requests.add(topic, withRequestIdHeader({ key: conversationId, value: JSON.stringify(envelope), headers }));
      } catch (error) {
        span.recordException(error instanceof Error ? error : String(error));
        span.setStatus({ code: SpanStatusCode.ERROR });
        throw error;
      } finally {
        span.end();
      }
    },
  };
}
