export { businessScope, scopedFilter } from './shared/business-scope';
export type { BusinessId, BusinessScope } from './shared/business-scope';
export { type RecentScopedRead, recentScopedReads } from './shared/recent-scoped-reads';
export { phoneLookupKey, usernameLookupKey, nameLookupKey } from './shared/lookup-keys';
export { connectMongo, connectedDatabaseKey, ensureIndexes, isMongoConnected, isMongoUnreachableError, pingMongo, disconnectMongo } from './mongo-connection';
export { isDuplicateKeyError } from './shared/duplicate-key';
export { UpsertConflictError } from './shared/bulk-upsert';
export type { UpsertCounts } from './shared/bulk-upsert';
export type { SeedUpsert } from './shared/tenant-repository';
export type { WalletCharge, WalletChargeOutcome } from './shared/token-wallet';
export { contactSnapshotOf, fullName } from './contact/contact-snapshot';
export type { ContactSnapshot } from './contact/contact-snapshot';

// Repositories and entity types of each collection (docs/data-layer.md).
export { BusinessRepository } from './business/business.repository';
export type { BusinessSeedFields, StorageReservation } from './business/business.repository';
export type { BusinessEntity } from './business/business.entity';
export { ApiTokenRepository } from './api-token/api-token.repository';
export type { ApiTokenSeedFields } from './api-token/api-token.repository';
export type { ApiTokenEntity } from './api-token/api-token.entity';
export { ChannelRepository } from './channel/channel.repository';
export type { ChannelLimitsPatch, ChannelSeedFields } from './channel/channel.repository';
export { publicMessagingLimit, storedMessagingLimit } from './channel/messaging-limit';
export type { ChannelEntity } from './channel/channel.entity';
export { ContactRepository, storedContactDefaults } from './contact/contact.repository';
export { ContactAttributeDefinitionRepository } from './business/contact-attribute-definitions.repository';
export type { DefineOutcome, StoredAttributeDefinition } from './business/contact-attribute-definitions.repository';
export type { ContactListFilter, ConversationStateCopy, NewContact } from './contact/contact.repository';
export type { ContactEntity, ContactLookupKey } from './contact/contact.entity';
export { ContactErasureRepository } from './contact-erasure/contact-erasure.repository';
export type { ClaimedErasure } from './contact-erasure/contact-erasure.repository';
export type { ContactErasureEntity, ErasureState } from './contact-erasure/contact-erasure.entity';
export { ConversationDataEraser } from './contact-erasure/conversation-data-eraser';
export { BroadcastRepository } from './broadcast/broadcast.repository';
export type { BroadcastChange, ClaimedBroadcast } from './broadcast/broadcast.repository';
export { BROADCAST_STATES, BROADCAST_PAUSE_REASONS, emptyBroadcastCounts } from './broadcast/broadcast.entity';
export type { BroadcastEntity, BroadcastState, BroadcastPauseReason, BroadcastAudienceEntity, BroadcastCountsEntity, BroadcastFreezeCheckpoint } from './broadcast/broadcast.entity';
export { BroadcastRecipientRepository } from './broadcast-recipient/broadcast-recipient.repository';
export type { RecipientOutcomes, RecipientSendOutcome } from './broadcast-recipient/broadcast-recipient.repository';
export { RECIPIENT_STATES, RECIPIENT_SKIP_REASONS } from './broadcast-recipient/broadcast-recipient.entity';
export type { BroadcastRecipientEntity, RecipientState, RecipientSkipReason, RecipientError } from './broadcast-recipient/broadcast-recipient.entity';
export type { ErasableFile } from './contact-erasure/conversation-data-eraser';
export { ConversationRepository } from './conversation/conversation.repository';
export { type ConversationIdentity, storedConversationDefaults } from './conversation/conversation-defaults';
export type { NewConversation, ConversationChange, InboxStatusChange, InboundMessageApplied } from './conversation/conversation.repository';
export type { ConversationListFilter } from './conversation/conversation.repository';
export { conversationListQuery } from './conversation/conversation.repository';
export type { ConversationEntity, LastMessage } from './conversation/conversation.entity';
export { MessageRepository } from './message/message.repository';
export type { NewMessage, StoredError, StoredPricing, UntranscribedMediaStatus, DeliveryStatusUpdate } from './message/message.repository';
export type { TimelinePage } from './shared/timeline-page';
export type { MessageEntity } from './message/message.entity';
export { TimelineEventRepository } from './timeline-event/timeline-event.repository';
export type { NewTimelineEvent, TimelineAuthor } from './timeline-event/timeline-event.repository';
export type { TimelineEventEntity } from './timeline-event/timeline-event.entity';
export type { StoredTimelineEvent } from './timeline-event/timeline-event.repository';
export { TagRepository } from './tag/tag.repository';
export type { TagEntity } from './tag/tag.entity';
export { MailboxCategoryRepository } from './mailbox-category/mailbox-category.repository';
export type { MailboxCategoryEntity } from './mailbox-category/mailbox-category.entity';
export { MailboxRepository } from './mailbox/mailbox.repository';
export type { MailboxEntity } from './mailbox/mailbox.entity';
export { AiEmployeeRepository } from './ai-employee/ai-employee.repository';
export type { AiEmployeeSeedFields } from './ai-employee/ai-employee.repository';
export type { AiEmployeeEntity } from './ai-employee/ai-employee.entity';
export { TemplateRepository } from './template/template.repository';
export type { TemplateEntity } from './template/template.entity';
export type { TemplateListPosition, TemplateListQuery, TemplateMatch } from './template/template.repository';
export { QuickReplyRepository } from './quick-reply/quick-reply.repository';
export type { QuickReplyEntity } from './quick-reply/quick-reply.entity';
export { PaymentRepository } from './payment/payment.repository';
export type { PaymentEntity } from './payment/payment.entity';
export { WebhookEndpointRepository } from './webhook-endpoint/webhook-endpoint.repository';
export type { NewWebhookEndpoint, WebhookEndpointChanges, EndpointPagePosition, WebhookEndpointSeed, WebhookEndpointTarget } from './webhook-endpoint/webhook-endpoint.repository';
export { InProcessWebhookEndpointListVersions } from './webhook-endpoint/webhook-endpoint-list-versions';
export type { WebhookEndpointListVersions } from './webhook-endpoint/webhook-endpoint-list-versions';
export { RedisWebhookEndpointListVersions } from './webhook-endpoint/redis-webhook-endpoint-list-versions';
export { WEBHOOK_ENDPOINT_LIMIT } from './webhook-endpoint/webhook-endpoint.entity';
export type { WebhookEndpointEntity, WebhookSecretEntity } from './webhook-endpoint/webhook-endpoint.entity';
export { FileRepository } from './file/file.repository';
export type { NewFile, ExpiredUpload } from './file/file.repository';
export { FILE_MODULES } from './file/file.entity';
export type { ContentId, FileEntity, FileModule, FileStatus, UploadState, UploadAttempt } from './file/file.entity';
export { FileContentStore } from './file-content/file-content.store';
export type { StoredContent, WriteContentOptions } from './file-content/file-content.store';

// The scheduling collection (libs/scheduling-domain).
export { ScheduledMessageRepository, pendingConversationKey } from './scheduled-message/scheduled-message.repository';
export type { InsertPendingResult, ScheduleOutcome, ExecutingStatus, FireClaim } from './scheduled-message/scheduled-message.repository';
export type { ScheduledMessageEntity, DueSchedule, ScheduleAuthor } from './scheduled-message/scheduled-message.entity';
export { DefaultScheduledTemplates } from './channel/default-scheduled-template';

// Action groups (libs/actions-domain) and webhook deliveries (libs/webhooks).
export { ActionGroupRepository } from './action-group/action-group.repository';
export type { ActionGroupStore, ActionResultUpdate, GroupFinish, IndexedActionResult, LastActionResult, RecordedResult } from './action-group/action-group.repository';
export { ACTION_STATUSES, FINAL_ACTION_STATUSES, GROUP_STATUSES, isFinalActionStatus } from './action-group/action-group.entity';
export type { ActionErrorRecord, ActionGroupEntity, ActionRecord, ActionStatus, FinalActionStatus, GroupStatus } from './action-group/action-group.entity';
export { WebhookDeliveryRepository, deliveryId } from './webhook-delivery/webhook-delivery.repository';
export type { AttemptOutcome, ClaimedDelivery, DeliveryPagePosition, DueDelivery } from './webhook-delivery/webhook-delivery.repository';
export { DELIVERY_STATUSES } from './webhook-delivery/webhook-delivery.entity';
export type { DeliveryStatus, WebhookDeliveryEntity } from './webhook-delivery/webhook-delivery.entity';

// Events and the outboxes they are recorded from (docs/events.md).
export type { OutboxEntry, OutboxAuthor } from './shared/outbox-entry.schema';
export { OutboxRepository, OUTBOX_COLLECTIONS } from './outbox/outbox.repository';
export type { OutboxCollection, OutboxHolder } from './outbox/outbox.repository';
export { EventRepository } from './event/event.repository';
export type { EventPageQuery } from './event/event.repository';
export { EVENT_RETENTION_DAYS } from './event/event.schema';
export type { EventEntity } from './event/event.entity';

// The query-shape check (docs/data-layer.md, "Every query served by an index").
export type { ConnectMongoOptions } from './mongo-connection';
export { queryShapesOf, describeQueryShape, describeFilter, conjunctionsOf } from './query-shapes/query-shape';
export type { QueryShape, QueryCommand, FilterShape, ConditionClass } from './query-shapes/query-shape';
export type { QueryShapeLog, RecordedQueryShape } from './query-shapes/query-shape-recorder';

// The repositories of a seed load (libs/seed), built by its callers.
export { seedStoresOverMongo } from './seed-stores';
