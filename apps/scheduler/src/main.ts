import './instrument';
import { CommandStreamProducer, ensureTopics, kafkaConversationEventBus } from '@cmsg/command-stream';
import {
  AiEmployeeRepository,
  BusinessRepository,
  ChannelRepository,
  ContactRepository,
  ConversationRepository,
  EventRepository,
  FileRepository,
  MessageRepository,
  OutboxRepository,
  QuickReplyRepository,
  RedisWebhookEndpointListVersions,
  ScheduledMessageRepository,
  TemplateRepository,
  TimelineEventRepository,
  WebhookDeliveryRepository,
  WebhookEndpointRepository,
  connectMongo,
  disconnectMongo,
  ensureIndexes,
  isMongoConnected,
} from '@cmsg/dal';
import { BusinessSlugs, EventOutbox, EventRecorder, warnOfRecordingFailure } from '@cmsg/events';
import { TOPIC, cmsgMetrics, createLogger, topicName } from '@cmsg/platform';
import { createKafka } from '@cmsg/platform/kafka';
import { closeRedisClient, connectRedisClient, createRedisClient } from '@cmsg/platform/redis';
import { adaptUnaryService, runGrpcService } from '@cmsg/platform/grpc';
import { SchedulerServiceService, type SchedulerServiceServer } from '@cmsg/proto';
import { DEFAULT_FIRING_OPTIONS, FiringLoop, FiringPass, type SchedulingPorts, confirmedUploadLookup, randomIds, systemClock } from '@cmsg/scheduling-domain';
import { cachedWebhookFanOut, systemClock as systemWebhookClock } from '@cmsg/webhooks';
import { Partitioners } from 'kafkajs';
import { loadSchedulerConfig } from './config';
import { connectConversationContext } from './infrastructure/conversation-context-client';
import { startCustomerReplyConsumer } from './infrastructure/customer-reply.consumer';
import { schedulerHandlers } from './scheduler.grpc';

const logger = createLogger('scheduler');

runGrpcService({
  name: 'scheduler',
  logger,
  loadConfig: loadSchedulerConfig,
  start: async ({ config, services, clients }) => {
    await connectMongo(config.MONGODB_URI, { queryShapeLog: config.CMSG_MONGO_SHAPE_LOG, queryShapeSource: 'scheduler', metrics: cmsgMetrics });
    await ensureIndexes();

    const kafka = createKafka('scheduler', config.KAFKA_BROKERS, logger);
    const topic = topicName(config.KAFKA_TOPIC_PREFIX, TOPIC.conversationCommands);
    await ensureTopics(kafka, [topic], { partitions: config.COMMAND_TOPIC_PARTITIONS });
    const producer = kafka.producer({ createPartitioner: Partitioners.DefaultPartitioner });
    await producer.connect();
    const publisher = new CommandStreamProducer({ producer, topic });
    const eventsTopic = topicName(config.KAFKA_TOPIC_PREFIX, TOPIC.conversationEvents);
    // Connects in the background: while Redis is away the fan-out reads MongoDB.
    const redis = createRedisClient(config.REDIS_URL, logger);
    connectRedisClient(redis, logger);
    const endpointListVersions = new RedisWebhookEndpointListVersions(redis);
    const webhookEndpoints = new WebhookEndpointRepository(endpointListVersions);
    const businesses = new BusinessRepository();
    const conversations = new ConversationRepository();
    const contacts = new ContactRepository();
    // Records the events of schedules and tester conversations; the conversations service's relay records what a crash left.
    const events = new EventOutbox(
      new EventRecorder({
        stores: { events: new EventRepository(), conversations, timeline: new TimelineEventRepository(), contacts },
        // Deliveries queued here are sent by the actions-runner's dispatcher.
        fanOut: cachedWebhookFanOut({ endpoints: webhookEndpoints, versions: endpointListVersions, deliveries: new WebhookDeliveryRepository(), clock: systemWebhookClock }),
        bus: kafkaConversationEventBus(producer, eventsTopic),
        slugs: new BusinessSlugs(businesses),
      }),
      new OutboxRepository(),
      warnOfRecordingFailure(logger),
    );

    const clock = systemClock;
    const repository = new ScheduledMessageRepository();
    const ports: SchedulingPorts = {
      conversationContext: connectConversationContext(clients, config.CONVERSATIONS_GRPC_ADDRESS),
      publisher,
      schedules: repository,
      businesses,
      conversations,
      messages: new MessageRepository(),
      contacts,
      channels: new ChannelRepository(),
      aiEmployees: new AiEmployeeRepository(),
      quickReplies: new QuickReplyRepository(),
      templates: new TemplateRepository(),
      files: confirmedUploadLookup(new FileRepository()),
      events,
      clock,
      ids: randomIds,
    };
    const firingPass = new FiringPass(
      { repository, businesses, publisher, clock, logger },
      { replicaId: config.SCHEDULER_REPLICA_ID, leaseMs: config.SCHEDULER_FIRE_LEASE_MS, batchSize: config.SCHEDULER_BATCH_SIZE },
    );
    const firer = new FiringLoop(() => firingPass.run(), {
      intervalMs: config.SCHEDULER_POLL_INTERVAL_MS,
      // Schedule times are whole minutes (SPEC 4.1 `HH:MM`).
      dueEveryMs: DEFAULT_FIRING_OPTIONS.dueEveryMs,
      onError: (error) => logger.warn({ err: error }, 'scheduled messages: firing pass failed'),
    });
    services.add(
      SchedulerServiceService,
      adaptUnaryService<SchedulerServiceServer>(
        schedulerHandlers(ports, () => firer.wake()),
        logger,
      ),
    );

    // Drain order: stop taking requests, finish the firing pass under way, then close what they used.
    return {
      isHealthy: async () => isMongoConnected(),
      details: { topic, replica: config.SCHEDULER_REPLICA_ID },
      afterListening: async () => {
        firer.start();
        const customerReplies = await startCustomerReplyConsumer({
          kafka,
          topic: eventsTopic,
          groupId: config.CUSTOMER_REPLY_CONSUMER_GROUP_ID,
          partitions: config.COMMAND_TOPIC_PARTITIONS,
          repository,
          events,
          clock,
          logger,
        });
        return [
          { name: 'firer', close: () => firer.stop() },
          { name: 'customer-replies', close: () => customerReplies.stop() },
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
