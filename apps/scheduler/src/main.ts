import './instrument';
import { CommandStreamProducer, ensureTopics } from '@cmsg/command-stream';
import { connectMongo, disconnectMongo, isMongoConnected } from '@cmsg/dal';
import { TOPIC, adaptUnaryService, createKafka, createLogger, runGrpcService, topicName } from '@cmsg/platform';
import { SchedulerServiceService, type SchedulerServiceServer } from '@cmsg/proto';
import { ScheduleFirer, ScheduledMessageRepository, ensureSchedulingIndexes, filesCollectionLookup, systemClock } from '@cmsg/scheduling-domain';
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
    await connectMongo(config.MONGODB_URI, { queryShapeLog: config.CMSG_MONGO_SHAPE_LOG, queryShapeSource: 'scheduler' });
    await ensureSchedulingIndexes();

    const kafka = createKafka('scheduler', config.KAFKA_BROKERS, logger);
    const topic = topicName(config.KAFKA_TOPIC_PREFIX, TOPIC.conversationCommands);
    await ensureTopics(kafka, [topic], { partitions: config.COMMAND_TOPIC_PARTITIONS });
    const producer = kafka.producer({ createPartitioner: Partitioners.DefaultPartitioner });
    await producer.connect();
    const publisher = new CommandStreamProducer({ producer, topic });

    const clock = systemClock;
    const repository = new ScheduledMessageRepository();
    const conversationContext = connectConversationContext(clients, config.CONVERSATIONS_GRPC_ADDRESS);
    const firer = new ScheduleFirer(
      { repository, publisher, clock, logger },
      {
        replicaId: config.SCHEDULER_REPLICA_ID,
        pollIntervalMs: config.SCHEDULER_POLL_INTERVAL_MS,
        leaseMs: config.SCHEDULER_FIRE_LEASE_MS,
        staleFiringMs: config.SCHEDULER_STALE_FIRING_MS,
        batchSize: config.SCHEDULER_BATCH_SIZE,
        concurrency: config.SCHEDULER_CONCURRENCY,
        catchUpIntervalMs: config.SCHEDULER_CATCH_UP_INTERVAL_MS,
        staleCheckIntervalMs: config.SCHEDULER_STALE_CHECK_INTERVAL_MS,
      },
    );
    services.add(
      SchedulerServiceService,
      adaptUnaryService<SchedulerServiceServer>(
        schedulerHandlers({ repository, conversations: conversationContext, publisher, files: filesCollectionLookup, clock, wakeFirer: () => firer.wake() }),
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
          topic: topicName(config.KAFKA_TOPIC_PREFIX, TOPIC.conversationEvents),
          groupId: config.CUSTOMER_REPLY_CONSUMER_GROUP_ID,
          partitions: config.COMMAND_TOPIC_PARTITIONS,
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
      ],
    };
  },
});
