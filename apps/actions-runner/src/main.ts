import './instrument';
import {
  ActionExecutor,
  AiPipelines,
  type ConversationCommand,
  ExecuteActionGroup,
  MongoFiredSchedules,
  parseConversationCommand,
  systemClock,
} from '@cmsg/actions-domain';
import { AiProvider } from '@cmsg/ai-provider';
import { recentBroadcastStates } from '@cmsg/broadcasts-domain';
import { CommandStreamConsumer, CommandStreamProducer, ensureTopics, kafkaConversationEventBus } from '@cmsg/command-stream';
import {
  ActionGroupRepository,
  BroadcastRecipientRepository,
  BroadcastRepository,
  BusinessRepository,
  ContactRepository,
  ConversationRepository,
  DefaultScheduledTemplates,
  EventRepository,
  OutboxRepository,
  RedisWebhookEndpointListVersions,
  ScheduledMessageRepository,
  TimelineEventRepository,
  WebhookDeliveryRepository,
  WebhookEndpointRepository,
  connectMongo,
  disconnectMongo,
  isMongoConnected,
} from '@cmsg/dal';
import { BusinessSlugs, EventOutbox, EventRecorder, warnOfRecordingFailure } from '@cmsg/events';
import { TOPIC, cmsgMetrics, createLogger, topicName } from '@cmsg/platform';
import { createKafka } from '@cmsg/platform/kafka';
import { closeRedisClient, connectRedisClient, createRedisClient } from '@cmsg/platform/redis';
import { adaptUnaryService, runGrpcService } from '@cmsg/platform/grpc';
import { ActionsServiceService, type ActionsServiceServer } from '@cmsg/proto';
import { DEFAULT_WEBHOOK_RETRY_POLICY, HttpWebhookTransport, WebhookDispatcher, cachedWebhookFanOut } from '@cmsg/webhooks';
import { Partitioners } from 'kafkajs';
import { actionsHandlers } from './actions.grpc';
import { broadcastSendTemplate, startBroadcastSends } from './broadcast-sends.consumer';
import { loadActionsRunnerConfig } from './config';
import { conversationCommandHandler, conversationCommandPoisonHandler } from './conversation-command.handler';
import { connectConversationServices } from './infrastructure/conversation-clients';

const logger = createLogger('actions-runner');

/** Room left in the shutdown grace period after draining the command stream. */
const SHUTDOWN_TAIL_MS = 5_000;

runGrpcService({
  name: 'actions-runner',
  logger,
  loadConfig: loadActionsRunnerConfig,
  start: async ({ config, services: grpcServices, clients }) => {
    await connectMongo(config.MONGODB_URI, { queryShapeLog: config.CMSG_MONGO_SHAPE_LOG, queryShapeSource: 'actions-runner', metrics: cmsgMetrics });
    const groups = new ActionGroupRepository();
    const deliveries = new WebhookDeliveryRepository();
    // Connects in the background: while Redis is away the fan-out reads MongoDB, and a disable waits for the next failure.
    const redis = createRedisClient(config.REDIS_URL, logger);
    connectRedisClient(redis, logger);
    const endpointListVersions = new RedisWebhookEndpointListVersions(redis);
    const endpoints = new WebhookEndpointRepository(endpointListVersions);
    cmsgMetrics.gauge('cmsg_webhook_backlog', 'Webhook deliveries pending (due or waiting for a retry), in every business.', () => deliveries.countPendingInAnyBusiness());
    // The collections this service owns; autoIndex is off, so their indexes are created here.
    await groups.ensureIndexes();
    await deliveries.ensureIndexes();
    await endpoints.ensureIndexes();

    const kafka = createKafka('actions-runner', config.KAFKA_BROKERS, logger);
    const topic = topicName(config.KAFKA_TOPIC_PREFIX, TOPIC.conversationCommands);
    await ensureTopics(kafka, [topic], { partitions: config.COMMAND_TOPIC_PARTITIONS });
    const broadcastSendsTopic = topicName(config.KAFKA_TOPIC_PREFIX, TOPIC.broadcastSends);
    await ensureTopics(kafka, [broadcastSendsTopic], { partitions: config.BROADCAST_TOPIC_PARTITIONS });
    const producer = kafka.producer({ createPartitioner: Partitioners.DefaultPartitioner });
    await producer.connect();

    const clock = systemClock;
    const services = connectConversationServices(clients, config.CONVERSATIONS_GRPC_ADDRESS);
    const ai = new AiPipelines(services, new AiProvider({ baseUrl: config.AI_BASE_URL, apiKey: config.AI_API_KEY }), clock, logger);
    const dispatcher = new WebhookDispatcher(
      { deliveries, endpoints, transport: new HttpWebhookTransport({ allowPrivate: config.WEBHOOK_ALLOW_PRIVATE_URLS }), clock, logger },
      {
        retry: { ...DEFAULT_WEBHOOK_RETRY_POLICY, baseDelayMs: config.WEBHOOK_RETRY_BASE_MS },
        concurrency: config.WEBHOOK_CONCURRENCY,
        endpointConcurrency: config.WEBHOOK_ENDPOINT_CONCURRENCY,
        idleMs: config.WEBHOOK_IDLE_MS,
        attemptTimeoutMs: 10_000,
        disableAfterMs: config.WEBHOOK_DISABLE_AFTER_MS,
      },
    );
    // Events of action groups and fired schedules are recorded here: the dispatcher of this replica
    // wakes as soon as their deliveries are queued. The conversations service's relay records what a crash left.
    const fanOut = cachedWebhookFanOut({ endpoints, versions: endpointListVersions, deliveries, clock, onQueued: () => dispatcher.wake() });
    const conversations = new ConversationRepository();
    const timeline = new TimelineEventRepository();
    const events = new EventOutbox(
      new EventRecorder({
        stores: { events: new EventRepository(), conversations, timeline, contacts: new ContactRepository() },
        fanOut,
        bus: kafkaConversationEventBus(producer, topicName(config.KAFKA_TOPIC_PREFIX, TOPIC.conversationEvents)),
        slugs: new BusinessSlugs(new BusinessRepository()),
      }),
      new OutboxRepository(),
      warnOfRecordingFailure(logger),
    );
    const executeGroup = new ExecuteActionGroup({
      groups,
      executor: new ActionExecutor(services, ai),
      actions: services.actions,
      events,
      clock,
      logger,
    });

    const firedSchedules = new MongoFiredSchedules({ schedules: new ScheduledMessageRepository(), timeline, conversations, defaultTemplates: new DefaultScheduledTemplates() }, events);
    const schedules = { services, ai, store: firedSchedules, clock, logger };

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

    grpcServices.add(
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

    // Drain order: stop accepting groups, drain running ones (unfinished ones go to another replica),
    // finish webhook attempts in flight, then close what they used.
    return {
      isHealthy: async () => isMongoConnected(),
      details: { topic, group_id: config.COMMAND_CONSUMER_GROUP_ID },
      afterListening: async () => {
        // Webhooks flow while the command stream joins its group (after a crash, that waits out the dead member's session).
        dispatcher.start();
        const broadcastStore = { broadcasts: new BroadcastRepository(), recipients: new BroadcastRecipientRepository() };
        const broadcastClock = { now: () => new Date(clock.now()) };
        const broadcastSends = await startBroadcastSends(
          kafka,
          {
            store: broadcastStore,
            events,
            clock: broadcastClock,
            states: recentBroadcastStates(broadcastStore, broadcastClock),
            sendTemplate: broadcastSendTemplate(services),
          },
          {
            topic: broadcastSendsTopic,
            groupId: config.BROADCAST_CONSUMER_GROUP_ID,
            sliceConcurrency: config.BROADCAST_SLICE_CONCURRENCY,
            sendConcurrency: config.BROADCAST_SEND_CONCURRENCY,
            sessionTimeoutMs: config.COMMAND_SESSION_TIMEOUT_MS,
          },
          logger,
        );
        await consumer.start();
        return [
          { name: 'broadcast-sends', close: () => broadcastSends.stop() },
          { name: 'command-stream', close: () => consumer.stop() },
          { name: 'webhooks', close: () => dispatcher.stop() },
        ];
      },
      closers: [
        { name: 'kafka', close: () => producer.disconnect() },
        { name: 'mongodb', close: () => disconnectMongo() },
        { name: 'redis', close: () => closeRedisClient(redis) },
      ],
    };
  },
});
