import './instrument';
import { CloudApiClient } from '@cmsg/chat-platform';
import { ConversationOutbox, ListCursorCodec } from '@cmsg/conversations-domain';
import { connectMongo, disconnectMongo, ensureIndexes, isMongoConnected } from '@cmsg/dal';
import { Files, ensureFileIndexes } from '@cmsg/files';
import { TOPIC, adaptUnaryService, createKafka, createLogger, runGrpcService, topicName } from '@cmsg/platform';
import {
  ConversationActionsServiceService,
  type ConversationActionsServiceServer,
  ConversationsServiceService,
  type ConversationsServiceServer,
  FilesServiceService,
} from '@cmsg/proto';
import { startChatInboundConsumer } from './chat-inbound.consumer';
import { conversationActionHandlers } from './conversation-actions.grpc';
import { config } from './config';
import { conversationsHandlers } from './conversations.grpc';
import { kafkaEventPublisher } from './kafka-event-publisher';
import { messageSendingHandlers } from './message-sending.grpc';
import { filesHandlers } from './files.grpc';
import { startUploadSweeper } from './upload-sweeper';

const logger = createLogger('conversations');

runGrpcService({
  name: 'conversations service',
  logger,
  loadConfig: () => config,
  start: async ({ services }) => {
    await connectMongo(config.MONGODB_URI, { queryShapeLog: config.CMSG_MONGO_SHAPE_LOG, queryShapeSource: 'conversations' });
    await ensureIndexes();
    await ensureFileIndexes();
    const files = new Files({ signingSecret: config.SIGNING_SECRET, publicBaseUrl: config.PUBLIC_BASE_URL });
    const producer = createKafka('conversations', config.KAFKA_BROKERS, logger).producer({ allowAutoTopicCreation: true });
    await producer.connect();

    const outbox = new ConversationOutbox(kafkaEventPublisher(producer, topicName(config.KAFKA_TOPIC_PREFIX, TOPIC.conversationEvents)), (error, id) =>
      logger.warn({ err: error, conversation_uuid: id }, 'event publish failed; the outbox relay will retry'),
    );
    const chatApi = new CloudApiClient({
      baseUrl: config.CHAT_API_BASE_URL,
      timeoutMs: config.CHAT_API_TIMEOUT_MS,
      bsuidSendEnabled: config.CHAT_BSUID_SEND_ENABLED,
    });
    // A send still in flight this long after it started was cut off by a crash (see OutboundMessageStore.settle).
    const sendLeaseMs = config.CHAT_API_TIMEOUT_MS + 5_000;

    services.add(
      ConversationsServiceService,
      adaptUnaryService<ConversationsServiceServer>(conversationsHandlers({ cursorCodec: new ListCursorCodec(config.SIGNING_SECRET), outbox }), logger),
    );
    services.add(
      ConversationActionsServiceService,
      adaptUnaryService<ConversationActionsServiceServer>(
        { ...conversationActionHandlers({ outbox }), ...messageSendingHandlers({ sender: chatApi, files, inFlightLeaseMs: sendLeaseMs, logger }) },
        logger,
      ),
    );
    services.add(FilesServiceService, filesHandlers({ files, logger }));

    return {
      isHealthy: async () => isMongoConnected(),
      afterListening: async () => {
        const relay = startOutboxRelay(outbox);
        const chatInbound = await startChatInboundConsumer({ config, logger, files, chatApi, outbox, producer });
        const uploadSweeper = startUploadSweeper(files, config.FILE_SWEEP_INTERVAL_MS, logger);
        return [
          { name: 'outbox-relay', close: async () => clearInterval(relay) },
          { name: 'chat-inbound', close: () => chatInbound.stop() },
          { name: 'upload-sweeper', close: async () => uploadSweeper.stop() },
        ];
      },
      closers: [
        { name: 'kafka', close: () => producer.disconnect() },
        { name: 'mongodb', close: () => disconnectMongo() },
      ],
    };
  },
});

/** Publishes events still unpublished after an interval; one pass at a time (a slow pass must not pile up). */
function startOutboxRelay(outbox: ConversationOutbox): NodeJS.Timeout {
  let relayPass: Promise<unknown> | undefined;
  return setInterval(() => {
    relayPass ??= outbox
      .flushStale(config.OUTBOX_RELAY_INTERVAL_MS)
      .catch((error: unknown) => logger.warn({ err: error }, 'outbox relay pass failed'))
      .finally(() => {
        relayPass = undefined;
      });
  }, config.OUTBOX_RELAY_INTERVAL_MS);
}
