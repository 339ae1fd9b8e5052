import './instrument';
import { Server } from '@grpc/grpc-js';
import {
  ActionExecutor,
  ActionGroupRepository,
  AiPipelines,
  type ConversationCommand,
  DEFAULT_WEBHOOK_RETRY_POLICY,
  ExecuteActionGroup,
  MongoFiredScheduleStore,
  WebhookDeliveryRepository,
  WebhookDispatcher,
  WebhookEndpointRepository,
  WebhookOutbox,
  ensureActionsIndexes,
  parseConversationCommand,
  systemClock,
} from '@cmsg/actions-domain';
import { AiProvider } from '@cmsg/ai-provider';
import { CommandStreamConsumer, CommandStreamProducer, ensureTopics } from '@cmsg/command-stream';
import { connectMongo, disconnectMongo, isMongoConnected } from '@cmsg/dal';
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
import { ActionsServiceService, type ActionsServiceServer } from '@cmsg/proto';
import { Partitioners } from 'kafkajs';
import { actionsHandlers } from './actions.grpc';
import { loadActionsRunnerConfig } from './config';
import { conversationCommandHandler, conversationCommandPoisonHandler } from './conversation-command.handler';
import { connectConversationServices } from './infrastructure/conversation-clients';
import { fetchWebhookTransport } from './infrastructure/fetch-webhook-transport';

const logger = createLogger('actions-runner');

/** Room left in the shutdown grace period after draining the command stream. */
const SHUTDOWN_TAIL_MS = 5_000;

async function main(): Promise<void> {
  const config = loadActionsRunnerConfig();
  await connectMongo(config.MONGODB_URI, { queryShapeLog: config.CMSG_MONGO_SHAPE_LOG, queryShapeSource: 'actions-runner' });
  await ensureActionsIndexes();

  const kafka = createKafka('actions-runner', config.KAFKA_BROKERS, logger);
  const topic = topicName(config.KAFKA_TOPIC_PREFIX, TOPIC.conversationCommands);
  await ensureTopics(kafka, [topic], { partitions: config.COMMAND_TOPIC_PARTITIONS });
  const producer = kafka.producer({ createPartitioner: Partitioners.DefaultPartitioner });
  await producer.connect();

  const clock = systemClock;
  const conversationClients = connectConversationServices(config.CONVERSATIONS_GRPC_ADDRESS);
  const { services } = conversationClients;
  const ai = new AiPipelines(services, new AiProvider({ baseUrl: config.AI_BASE_URL, apiKey: config.AI_API_KEY }), clock, logger);
  const groups = new ActionGroupRepository();
  const endpoints = new WebhookEndpointRepository();
  const deliveries = new WebhookDeliveryRepository();
  const executeGroup = new ExecuteActionGroup({
    groups,
    executor: new ActionExecutor(services, ai),
    actions: services.actions,
    webhooks: new WebhookOutbox(endpoints, deliveries),
    clock,
    logger,
  });

  const schedules = { services, ai, store: new MongoFiredScheduleStore(), clock, logger };

  const drainTimeoutMs = Math.max(1_000, config.SHUTDOWN_GRACE_MS - SHUTDOWN_TAIL_MS);
  const consumer = new CommandStreamConsumer<ConversationCommand>({
    kafka,
    topic,
    groupId: config.COMMAND_CONSUMER_GROUP_ID,
    handler: conversationCommandHandler(executeGroup, schedules),
    decode: parseConversationCommand,
    onPoison: conversationCommandPoisonHandler(executeGroup, schedules),
    logger,
    maxConcurrency: config.COMMAND_CONCURRENCY,
    drainTimeoutMs,
    // Rides out a conversations-service restart (about 90 s) before a group is given up.
    retry: { attempts: 8, initialBackoffMs: 1_000, maxBackoffMs: 30_000 },
    consumerConfig: { sessionTimeout: config.COMMAND_SESSION_TIMEOUT_MS, heartbeatInterval: Math.floor(config.COMMAND_SESSION_TIMEOUT_MS / 10) },
  });
  const dispatcher = new WebhookDispatcher(deliveries, endpoints, fetchWebhookTransport, clock, logger, {
    retry: { ...DEFAULT_WEBHOOK_RETRY_POLICY, baseDelayMs: config.WEBHOOK_RETRY_BASE_MS },
    concurrency: config.WEBHOOK_CONCURRENCY,
    idleMs: config.WEBHOOK_IDLE_MS,
    attemptTimeoutMs: 10_000,
  });

  const server = new Server();
  server.addService(
    ActionsServiceService,
    adaptUnaryService<ActionsServiceServer>(
      actionsHandlers({
        submit: { actions: services.actions, publisher: new CommandStreamProducer<ConversationCommand>({ producer, topic }), groups, clock, logger },
        groups,
        ai,
      }),
      logger,
    ),
  );
  addHealthService(server, async () => isMongoConnected(), logger);
  await consumer.start();
  dispatcher.start();
  const port = await bindGrpcServer(server, config.GRPC_ADDRESS);
  logger.info({ port, topic, group_id: config.COMMAND_CONSUMER_GROUP_ID }, 'actions-runner listening');

  // Order: stop accepting groups, drain running ones (unfinished ones go to another replica),
  // finish webhook attempts in flight, then close what they used.
  installGracefulShutdown(
    logger,
    [
      { name: 'grpc', close: () => shutdownGrpcServer(server) },
      { name: 'command-stream', close: () => consumer.stop() },
      { name: 'webhooks', close: () => dispatcher.stop() },
      { name: 'kafka', close: () => producer.disconnect() },
      { name: 'grpc-clients', close: async () => conversationClients.close() },
      { name: 'mongodb', close: () => disconnectMongo() },
    ],
    config.SHUTDOWN_GRACE_MS,
  );
}

main().catch((error: unknown) => {
  logger.fatal({ err: error }, 'actions-runner failed to start');
  process.exit(1);
});
