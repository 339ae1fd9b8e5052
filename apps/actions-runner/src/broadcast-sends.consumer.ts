import { type SendSlice, type SenderPorts, sendSlice } from '@cmsg/broadcasts-domain';
import type { Logger } from '@cmsg/platform';
import { restartAfterCrashes } from '@cmsg/platform/kafka';
import type { TemplateHeader } from '@cmsg/proto';
import type { Kafka } from 'kafkajs';
import type { ConversationServices } from '@cmsg/actions-domain';

export interface BroadcastSendsOptions {
  topic: string;
  groupId: string;
  /** Slices (partitions) sent at once by this replica. */
  sliceConcurrency: number;
  /** Recipients of one slice in flight at once. */
  sendConcurrency: number;
  sessionTimeoutMs: number;
}

/** The template send of a broadcast recipient, through the conversations service's SendMessage. */
export function broadcastSendTemplate(services: ConversationServices): SenderPorts['sendTemplate'] {
  return async (scope, request) => {
    const response = await services.actions.sendMessage({
      caller: { business_id: scope.businessId, token_uuid: '' },
      conversation: { uuid: request.conversationId },
      operation_id: request.operationId,
      author: { type: 'system' },
      template: {
        template: { uuid: request.template.uuid },
        variables: request.variables,
        header: (request.header as TemplateHeader | null) ?? undefined,
        button_parameters: request.buttonParameters,
      },
      broadcast: { uuid: request.broadcast.uuid, max_per_second: request.broadcast.maxPerSecond },
    });
    return { messageId: response.message?.uuid ?? '' };
  };
}

/**
 * Every replica consumes `broadcast-sends` in one group: the partitions, hence the slices of every
 * running broadcast, are shared among them (docs/broadcasts.md). A slice is committed once sent;
 * one cut off by a crash is delivered again, and the recipients' claims keep each send single.
 */
export async function startBroadcastSends(kafka: Kafka, ports: SenderPorts, options: BroadcastSendsOptions, logger: Logger): Promise<BroadcastSends> {
  const consumer = kafka.consumer({ groupId: options.groupId, sessionTimeout: options.sessionTimeoutMs, heartbeatInterval: Math.min(3_000, Math.floor(options.sessionTimeoutMs / 3)) });
  const run = () => consumer.run({
    partitionsConsumedConcurrently: options.sliceConcurrency,
    eachMessage: async ({ message, heartbeat }) => {
      const slice = parseSlice(message.value);
      if (!slice) {
        logger.warn({ offset: message.offset }, 'broadcast-sends: unreadable slice skipped');
        return;
      }
      const beat = setInterval(() => heartbeat().catch(() => undefined), 2_000);
      try {
        const result = await sendSlice(ports, slice, { concurrency: options.sendConcurrency });
        // Unreachable conversations service: the claims stay; the coordinator settles and dispatches them again.
        if (result.stopped === 'unavailable') await new Promise((resolve) => setTimeout(resolve, 1_000));
      } catch (error) {
        logger.warn({ err: error, broadcast_uuid: slice.broadcast_id, from_seq: slice.from_seq }, 'broadcast slice failed; the coordinator dispatches its recipients again');
      } finally {
        clearInterval(beat);
      }
    },
  });
  const crashRestart = restartAfterCrashes(consumer, run, logger, 'broadcast-sends');
  await consumer.connect();
  await consumer.subscribe({ topic: options.topic, fromBeginning: true });
  await run();
  return {
    stop: async () => {
      crashRestart.cancel();
      await consumer.disconnect();
    },
  };
}

export interface BroadcastSends {
  /** Leaves the group (no restart after a crash from then on). */
  stop(): Promise<void>;
}

function parseSlice(value: Buffer | null): SendSlice | null {
  try {
    const slice = JSON.parse(value?.toString('utf8') ?? '') as SendSlice;
    return typeof slice.broadcast_id === 'string' && typeof slice.business_id === 'string' && Number.isInteger(slice.from_seq) && Number.isInteger(slice.to_seq) ? slice : null;
  } catch {
    return null;
  }
}
