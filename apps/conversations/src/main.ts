import './instrument';
import { CloudApiClient } from '@cmsg/chat-platform';
import { type CoordinatorPorts, broadcastSendAdmission, pauseChannelBroadcasts, pauseTemplateBroadcasts, recentBroadcastStates } from '@cmsg/broadcasts-domain';
import { ensureTopics, kafkaConversationEventBus } from '@cmsg/command-stream';
import { type ConsentRecorder, ListCursorCodec, broadcastSendSources, type SendLease, recordConsent, sendOutcomeOf, startConversationBindings } from '@cmsg/conversations-domain';
import {
  AiEmployeeRepository,
  ApiTokenRepository,
  BusinessRepository,
  ChannelRepository,
  ContactRepository,
  ConversationRepository,
  EventRepository,
  OutboxRepository,
  RedisWebhookEndpointListVersions,
  TemplateRepository,
  TimelineEventRepository,
  WebhookDeliveryRepository,
  WebhookEndpointRepository,
  businessScope,
  connectMongo,
  disconnectMongo,
  ensureIndexes,
  isMongoConnected,
  pingMongo,
} from '@cmsg/dal';
import { BusinessSlugs, EventOutbox, EventRecorder, warnOfRecordingFailure } from '@cmsg/events';
import { TOPIC, cmsgMetrics, createLogger, topicName } from '@cmsg/platform';
import { createKafka } from '@cmsg/platform/kafka';
import { closeRedisClient, createRedisClient } from '@cmsg/platform/redis';
import { MONGODB_HEALTH_SERVICE, adaptUnaryService, runGrpcService } from '@cmsg/platform/grpc';
import { ChannelBackOff, ChannelRateBudget, LiveFirstGate, MessagingLimitLedger, PacedSender, PairPacer, SendCallFence, SenderHeartbeat, pacedSenderOptionsFor, sendLeaseMs } from '@cmsg/send-engine';
import { notingLiveActivity } from './live-activity';
import {
  applyChangesHandler,
  BroadcastsServiceService,
  type BroadcastsServiceServer,
  ConversationActionsServiceService,
  type ConversationActionsServiceServer,
  ConversationsServiceService,
  type ConversationsServiceServer,
  FilesServiceService,
  WebhookEndpointsServiceService,
  type WebhookEndpointsServiceServer,
} from '@cmsg/proto';
import { cachedWebhookFanOut, systemClock } from '@cmsg/webhooks';
import { startBroadcastCoordinator } from './broadcast-coordinator';
import { audiencePorts, broadcastStore, definitionPorts, kafkaSlicePublisher } from './broadcast-ports';
import { broadcastsHandlers } from './broadcasts.grpc';
import { startChatInboundConsumer } from './chat-inbound.consumer';
import { conversationActionHandlers } from './conversation-actions.grpc';
import { loadConversationsConfig } from './config';
import { contactPorts } from './contact-ports';
import { conversationUseCasePorts } from './conversation-ports';
import { contactErasurePorts, startContactErasureWorker } from './contact-erasure-worker';
import { eligibilityPorts } from './eligibility-ports';
import { conversationsHandlers } from './conversations.grpc';
import { messageSendingHandlers } from './message-sending.grpc';
import { startConversationHandlers } from './start-conversation.grpc';
import { filesHandlers } from './files.grpc';
import { filesService } from './files-service';
import { startOutboxRelay } from './outbox-relay';
import { startUploadSweeper } from './upload-sweeper';
import { webhookEndpointsHandlers } from './webhook-endpoints.grpc';

const logger = createLogger('conversations');

/** A readiness probe must not wait long on a MongoDB that does not answer. */
const MONGODB_PING_TIMEOUT_MS = 1000;

runGrpcService({
  name: 'conversations service',
  logger,
  loadConfig: loadConversationsConfig,
  start: async ({ config, services }) => {
    await connectMongo(config.MONGODB_URI, { queryShapeLog: config.CMSG_MONGO_SHAPE_LOG, queryShapeSource: 'conversations', metrics: cmsgMetrics });
    await ensureIndexes();
    const files = filesService(config);
    const kafka = createKafka('conversations', config.KAFKA_BROKERS, logger);
    const broadcastSendsTopic = topicName(config.KAFKA_TOPIC_PREFIX, TOPIC.broadcastSends);
    await ensureTopics(kafka, [broadcastSendsTopic], { partitions: config.BROADCAST_TOPIC_PARTITIONS });
    const producer = kafka.producer({ allowAutoTopicCreation: true });
    await producer.connect();

    const redis = createRedisClient(config.REDIS_URL, logger);
    await redis.connect();

    const channels = new ChannelRepository();
    const businesses = new BusinessRepository();
    const events = new EventRepository();
    const outboxes = new OutboxRepository();
    const endpointListVersions = new RedisWebhookEndpointListVersions(redis);
    const webhookEndpoints = new WebhookEndpointRepository(endpointListVersions);
    const webhookDeliveries = new WebhookDeliveryRepository();
    // Recorded events (and pings) become deliveries; the actions-runner's dispatcher sends them.
    const fanOut = cachedWebhookFanOut({ endpoints: webhookEndpoints, versions: endpointListVersions, deliveries: webhookDeliveries, clock: systemClock });
    const recorder = new EventRecorder({
      stores: { events, conversations: new ConversationRepository(), timeline: new TimelineEventRepository(), contacts: new ContactRepository() },
      fanOut,
      bus: kafkaConversationEventBus(producer, topicName(config.KAFKA_TOPIC_PREFIX, TOPIC.conversationEvents)),
      slugs: new BusinessSlugs(businesses),
    });
    const outbox = new EventOutbox(recorder, outboxes, warnOfRecordingFailure(logger));
    const conversationPorts = conversationUseCasePorts(outbox, channels);
    const chatApi = new CloudApiClient({
      baseUrl: config.CHAT_API_BASE_URL,
      timeoutMs: config.CHAT_API_TIMEOUT_MS,
      bsuidSendEnabled: config.CHAT_BSUID_SEND_ENABLED,
      // The send engine retries 130429 and 131056 within the channel's shared budget.
      retryRateLimits: false,
    });
    const ledger = new MessagingLimitLedger(redis);
    const broadcasts = broadcastStore();
    const clock = { now: () => new Date() };
    const pacingOptions = pacedSenderOptionsFor(config.SEND_PAIR_INTERVAL_MS);
    const liveFirst = new LiveFirstGate();
    const admitBroadcastSend = broadcastSendAdmission(recentBroadcastStates(broadcasts, clock));
    // A send still in flight was cut off by a crash once the process that started it stopped (its
    // heartbeat expired), or at the latest this long after it started (its pacing waits, calls and
    // rate-limit retries at their longest, plus a margin): see OutboundMessageStore.settle.
    const sendLeaseDurationMs = sendLeaseMs(config.CHAT_API_TIMEOUT_MS, pacingOptions);
    const fences = new SendCallFence(redis, { ttlMs: sendLeaseDurationMs });
    const pacedSender = new PacedSender(
      chatApi,
      { gate: liveFirst, budget: new ChannelRateBudget(redis), backOff: new ChannelBackOff(redis), pairs: new PairPacer(redis), ledger, fences },
      {
        ...pacingOptions,
        admitBroadcastSend: (pacing) => admitBroadcastSend({ businessId: pacing.businessId, broadcastId: pacing.broadcast!.uuid }),
        onSpamRateLimit: async (pacing) => {
          const paused = await pauseChannelBroadcasts({ store: broadcasts, events: outbox, clock }, businessScope(pacing.businessId), pacing.channelId, 'spam_rate_limit');
          if (paused > 0) logger.warn({ channel_id: pacing.channelId, broadcasts: paused }, 'spam rate limit (131048): running broadcasts of the channel paused');
        },
      },
    );
    const contacts = contactPorts(outbox);
    const erasures = contactErasurePorts(contacts, outbox);
    const erasureWorker = startContactErasureWorker(erasures, logger);
    // Consent the customer or the provider states; a failure to record it never fails the message it came with.
    const recordContactConsent: ConsentRecorder = (scope, update) =>
      recordConsent(contacts, scope, update).catch((error: unknown) => logger.warn({ err: error, contact_uuid: update.contactId }, 'recording consent failed'));
    const senders = new SenderHeartbeat(redis, { onError: (error) => logger.warn({ err: error }, 'sender heartbeat not renewed') });
    await senders.start();
    const sendLease: SendLease = {
      ms: sendLeaseDurationMs,
      processId: senders.processId,
      isRunning: (processId) => senders.isRunning(processId),
      takeOverUncalled: ({ channelId, fenceId }) => fences.takeDown({ channelKey: channelId, fenceId }),
    };
    const sendDependencies = { ...conversationPorts.sends, sender: pacedSender, files, outbox, lease: sendLease, recordConsent: recordContactConsent };

    const audience = audiencePorts({ files, contacts });
    const definitions = definitionPorts((channel) => ledger.remaining({ channelKey: channel.id, limit: channel.messaging_limit }));
    const slices = kafkaSlicePublisher(producer, broadcastSendsTopic);
    const coordinatorPorts: CoordinatorPorts = {
      store: broadcasts,
      audience,
      events: outbox,
      slices,
      clock,
      sendOutcome: (scope, operationId) => sendOutcomeOf({ ...conversationPorts.sends, outbox, lease: sendLease }, scope, operationId),
      messagingLimitRemaining: async (scope, channelId) => {
        const channel = await definitions.channelById(scope, channelId);
        return channel ? ledger.remaining({ channelKey: channel.id, limit: channel.messaging_limit }) : null;
      },
    };
    const coordinator = startBroadcastCoordinator(coordinatorPorts, logger);
    services.add(
      BroadcastsServiceService,
      adaptUnaryService<BroadcastsServiceServer>(
        broadcastsHandlers({
          create: { store: broadcasts, definitions, audience, clock },
          read: { store: broadcasts, definitions, cursors: new ListCursorCodec(config.SIGNING_SECRET) },
          state: { store: broadcasts, events: outbox, slices, clock },
          wake: coordinator.wake,
        }),
        logger,
      ),
    );
    const conversationHandlers = conversationsHandlers({
      tokens: { apiTokens: new ApiTokenRepository(), businesses },
      channels,
      events: { events, clock: () => new Date() },
      notes: conversationPorts.notes,
      inboxStatus: conversationPorts.inboxStatus,
      conversationList: conversationPorts.list,
      conversationStatus: conversationPorts.status,
      timeline: conversationPorts.timeline,
      cursorCodec: new ListCursorCodec(config.SIGNING_SECRET),
      contacts,
      templates: { templates: new TemplateRepository(), channels },
      channelLimits: channels,
      eligibility: eligibilityPorts(),
      erasures,
      eraseSoon: erasureWorker.eraseSoon,
    });
    services.add(ConversationsServiceService, adaptUnaryService<ConversationsServiceServer>(conversationHandlers, logger));
    const actionHandlers = conversationActionHandlers({
      aiEmployees: new AiEmployeeRepository(),
      lookup: conversationPorts.lookup,
      tags: conversationPorts.tags,
      mailboxes: conversationPorts.mailboxes,
      aiAssignment: conversationPorts.aiAssignment,
      inboxStatus: conversationPorts.inboxStatus,
      context: conversationPorts.context,
      recentTimeline: conversationPorts.recentTimeline,
    });
    services.add(
      ConversationActionsServiceService,
      adaptUnaryService<ConversationActionsServiceServer>(
        notingLiveActivity(
          {
            ...actionHandlers,
            ...applyChangesHandler({ ...actionHandlers, addNote: conversationHandlers.addNote, markPending: conversationHandlers.markPending, markResolved: conversationHandlers.markResolved }),
            ...messageSendingHandlers({ ...sendDependencies, broadcastSources: broadcastSendSources(conversationPorts.sends), logger }),
            ...startConversationHandlers(
              startConversationBindings({
                contacts,
                send: sendDependencies,
                aiAssignment: conversationPorts.aiAssignment,
                mailboxes: conversationPorts.mailboxes,
                tags: conversationPorts.tags,
                notes: conversationPorts.notes,
              }),
            ),
          },
          liveFirst,
        ),
        logger,
      ),
    );
    services.add(FilesServiceService, filesHandlers({ files, logger }));
    services.add(
      WebhookEndpointsServiceService,
      adaptUnaryService<WebhookEndpointsServiceServer>(
        webhookEndpointsHandlers({
          endpoints: webhookEndpoints,
          deliveries: webhookDeliveries,
          businesses,
          fanOut,
          urlPolicy: { allowPrivate: config.WEBHOOK_ALLOW_PRIVATE_URLS },
          cursors: new ListCursorCodec(config.SIGNING_SECRET),
          clock: systemClock,
        }),
        logger,
      ),
    );
    cmsgMetrics.gauge('cmsg_outbox_backlog', 'Documents (conversations, messages, notes, schedules, action groups) whose outbox still holds entries not yet recorded as events.', () =>
      outboxes.countHoldersAcrossBusinesses(),
    );

    return {
      isHealthy: async () => isMongoConnected(),
      dependencyChecks: { [MONGODB_HEALTH_SERVICE]: () => pingMongo(MONGODB_PING_TIMEOUT_MS) },
      afterListening: async () => {
        const relay = startOutboxRelay(outbox, config.OUTBOX_RELAY_INTERVAL_MS, logger);
        const chatInbound = await startChatInboundConsumer({
          config,
          logger,
          files,
          chatApi,
          outbox,
          messageAuthors: conversationPorts.sends.authors,
          producer,
          recordConsent: recordContactConsent,
          templateNotApproved: async (scope, channelId, template) => {
            await pauseTemplateBroadcasts({ store: broadcasts, events: outbox, clock }, scope, channelId, template);
          },
        });
        const uploadSweeper = startUploadSweeper(files, config.FILE_SWEEP_INTERVAL_MS, logger);
        return [
          { name: 'outbox-relay', close: async () => relay.stop() },
          { name: 'chat-inbound', close: () => chatInbound.stop() },
          { name: 'upload-sweeper', close: async () => uploadSweeper.stop() },
          { name: 'contact-erasures', close: () => erasureWorker.stop() },
          { name: 'broadcast-coordinator', close: () => coordinator.stop() },
        ];
      },
      closers: [
        { name: 'kafka', close: () => producer.disconnect() },
        { name: 'mongodb', close: () => disconnectMongo() },
        // After the drain: no send of this process is in flight any more.
        { name: 'sender-heartbeat', close: () => senders.stop() },
        { name: 'redis', close: () => closeRedisClient(redis) },
      ],
    };
  },
});
