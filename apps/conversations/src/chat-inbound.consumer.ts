import type { ConsentRecorder } from '@cmsg/conversations-domain';
import { AiProvider } from '@cmsg/ai-provider';
import type { CloudApiClient } from '@cmsg/chat-platform';
import { CommandStreamConsumer, CommandStreamProducer, ensureTopics } from '@cmsg/command-stream';
import {
  BroadcastRecipientRepository,
  BusinessRepository,
  ChannelRepository,
  ContactErasureRepository,
  ContactRepository,
  ConversationRepository,
  FileRepository,
  MessageRepository,
  TemplateRepository,
} from '@cmsg/dal';
import type { Files } from '@cmsg/files';
import type { AiRunCommand } from '@cmsg/conversation-commands';
import type { OutboxRecorder } from '@cmsg/events';
import { type BroadcastProgress, type ChatInboundRecord, InboxIngest, type MessageAuthorLookup, type TemplateStatusPorts, parseChatInboundRecord } from '@cmsg/inbox-ingest';
import { TOPIC, type Logger, topicName } from '@cmsg/platform';
import { createKafka } from '@cmsg/platform/kafka';
import type { Producer } from 'kafkajs';
import type { ConversationsConfig } from './config';

export interface ChatInboundConsumerDependencies {
  config: ConversationsConfig;
  logger: Logger;
  files: Files;
  chatApi: CloudApiClient;
  outbox: OutboxRecorder;
  /** The names outbound messages' events show for their authors. */
  messageAuthors: MessageAuthorLookup;
  /** Produces the AI runs onto conversation-commands. */
  producer: Producer;
  /** Consent keywords, late 131050 failures and user preferences (CONTRACT 10.2). */
  recordConsent: ConsentRecorder;
  /** Pauses the running broadcasts of a template the provider no longer approves. */
  templateNotApproved: TemplateStatusPorts['templateNotApproved'];
}

/** Ingestion retries (download, AI) before giving up on a medium; statuses wait for their message meanwhile. */
const INGEST_ATTEMPTS = 4;

/**
 * The consumer of `chat-inbound` (webhook events the gateway verified): one sender's events in
 * order, senders in parallel, each handled by InboxIngest.
 */
export async function startChatInboundConsumer(dependencies: ChatInboundConsumerDependencies): Promise<{ stop(): Promise<void> }> {
  const { config, logger } = dependencies;
  const kafka = createKafka('conversations-chat-inbound', config.KAFKA_BROKERS, logger);
  const inboundTopic = topicName(config.KAFKA_TOPIC_PREFIX, TOPIC.chatInbound);
  const commandTopic = topicName(config.KAFKA_TOPIC_PREFIX, TOPIC.conversationCommands);
  await ensureTopics(kafka, [inboundTopic, commandTopic]);

  const aiRuns = new CommandStreamProducer<AiRunCommand>({ producer: dependencies.producer, topic: commandTopic });
  const channels = new ChannelRepository();
  const contacts = new ContactRepository();
  const conversations = new ConversationRepository();
  const ai = new AiProvider({ baseUrl: config.AI_BASE_URL, apiKey: config.AI_API_KEY, transcriptionModel: config.TRANSCRIPTION_MODEL });
  const ingest = new InboxIngest({
    repositories: {
      businesses: new BusinessRepository(),
      channels,
      contacts,
      contactErasures: new ContactErasureRepository(),
      conversations,
      files: new FileRepository(),
      messages: new MessageRepository(),
    },
    messageAuthors: dependencies.messageAuthors,
    files: dependencies.files,
    media: dependencies.chatApi,
    transcriber: ai,
    aiRuns,
    events: dependencies.outbox,
    recordConsent: dependencies.recordConsent,
    broadcastProgress: broadcastProgressOf(new BroadcastRecipientRepository()),
    logger,
    now: () => new Date(),
    templateStatuses: { channels, templates: new TemplateRepository(), templateNotApproved: dependencies.templateNotApproved },
    userPreferences: { channels, contacts, conversations },
    options: { visionModel: config.VISION_MODEL, speechTranscriptionCost: config.SPEECH_TRANSCRIPTION_COST_TOKENS, maxAttempts: INGEST_ATTEMPTS },
  });
  const consumer = new CommandStreamConsumer<ChatInboundRecord>({
    kafka,
    topic: inboundTopic,
    // Prefixed like the topics: stacks sharing one cluster must not share a group (members
    // subscribed to different topics in one group can be left without partitions).
    groupId: `${config.KAFKA_TOPIC_PREFIX}conversations-chat-inbound`,
    logger,
    decode: parseChatInboundRecord,
    handler: (record, context) => ingest.handle(record, context.attempt),
    onPoison: async (_record, error, context) => {
      logger.error({ err: error, key: context.key, offset: context.offset, raw: context.rawValue?.slice(0, 2000) }, 'chat inbound event dropped');
    },
    retry: { attempts: INGEST_ATTEMPTS },
  });
  await consumer.start();
  logger.info({ topic: inboundTopic }, 'chat inbound consumer started');
  return { stop: () => consumer.stop() };
}

function broadcastProgressOf(recipients: BroadcastRecipientRepository): BroadcastProgress {
  return {
    delivered: (scope, messageId, status) => recipients.recordDelivery(scope, messageId, status),
    replied: (scope, conversationId, since) => recipients.recordReply(scope, conversationId, since),
  };
}
