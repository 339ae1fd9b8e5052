import './instrument';
import { Server } from '@grpc/grpc-js';
import { ConversationOutbox, ListCursorCodec } from '@cmsg/conversations-domain';
import { connectMongo, disconnectMongo, ensureIndexes, isMongoConnected } from '@cmsg/dal';
import {
  TOPIC,
  adaptUnaryService,
  addHealthService,
  bindGrpcServer,
  createKafka,
  createLogger,
  installGracefulShutdown,
  shutdownGrpcServer,
  topicName,
} from '@cmsg/platform';
import {
  ConversationActionsServiceService,
  type ConversationActionsServiceServer,
  ConversationsServiceService,
  type ConversationsServiceServer,
} from '@cmsg/proto';
import { conversationActionHandlers } from './conversation-actions.grpc';
import { config } from './config';
import { conversationsHandlers } from './conversations.grpc';
import { kafkaEventPublisher } from './kafka-event-publisher';
import { messageSendingHandlers } from './message-sending.grpc';

const logger = createLogger('conversations');

async function main(): Promise<void> {
  await connectMongo(config.MONGODB_URI);
  await ensureIndexes();
  const producer = createKafka('conversations', config.KAFKA_BROKERS, logger).producer({ allowAutoTopicCreation: true });
  await producer.connect();

  const outbox = new ConversationOutbox(kafkaEventPublisher(producer, topicName(config.KAFKA_TOPIC_PREFIX, TOPIC.conversationEvents)), (error, id) =>
    logger.warn({ err: error, conversation_uuid: id }, 'event publish failed; the outbox relay will retry'),
  );
  const relay = setInterval(() => {
    outbox.flushStale(config.OUTBOX_RELAY_INTERVAL_MS).catch((error: unknown) => logger.warn({ err: error }, 'outbox relay pass failed'));
  }, config.OUTBOX_RELAY_INTERVAL_MS);

  const server = new Server();
  server.addService(
    ConversationsServiceService,
    adaptUnaryService<ConversationsServiceServer>(conversationsHandlers({ cursorCodec: new ListCursorCodec(config.SIGNING_SECRET), outbox }), logger),
  );
  server.addService(
    ConversationActionsServiceService,
    adaptUnaryService<ConversationActionsServiceServer>({ ...conversationActionHandlers(), ...messageSendingHandlers() }, logger),
  );
  addHealthService(server, async () => isMongoConnected(), logger);
  const port = await bindGrpcServer(server, config.GRPC_ADDRESS);
  logger.info({ port, address: config.GRPC_ADDRESS }, 'conversations service listening');

  installGracefulShutdown(
    logger,
    [
      { name: 'grpc', close: () => shutdownGrpcServer(server) },
      { name: 'outbox-relay', close: async () => clearInterval(relay) },
      { name: 'kafka', close: () => producer.disconnect() },
      { name: 'mongodb', close: () => disconnectMongo() },
    ],
    config.SHUTDOWN_GRACE_MS,
  );
}

main().catch((error: unknown) => {
  logger.fatal({ err: error }, 'conversations service failed to start');
  process.exit(1);
});
