export * from './models';
export { businessScope, scopedFilter } from './shared/business-scope';
export type { BusinessId, BusinessScope } from './shared/business-scope';
export { phoneLookupKey, usernameLookupKey, nameLookupKey } from './shared/lookup-keys';
export { connectMongo, ensureIndexes, isMongoConnected, disconnectMongo } from './mongo-connection';
export * from './seed';
export { contactSnapshotOf, fullName } from './contact/contact-snapshot';
export type { ContactSnapshot } from './contact/contact-snapshot';
export {
  aiEmployeeWallet,
  visionWallet,
  walletPosition,
  walletBalance,
  chargeWallet,
  visionWalletBalance,
  chargeVisionWallet,
  aiEmployeeWalletState,
} from './wallet-ledger/wallet-ledger';
export type { WalletId, WalletPosition, WalletCharge, WalletChargeOutcome } from './wallet-ledger/wallet-ledger';
export { latestConversationState, appendConversationState, mirrorConversationState, conversationStateEntryId } from './conversation-state-log/conversation-state-log';
export type { ConversationStateField, ConversationStateEntry, ConversationStateChange } from './conversation-state-log/conversation-state-log';
export { isDuplicateKeyError } from './shared/duplicate-key';
export { ScheduledMessageRepository, pendingConversationKey } from './scheduled-message/scheduled-message.repository';
export type { InsertPendingResult, ScheduleOutcome, ExecutingStatus, FireClaim } from './scheduled-message/scheduled-message.repository';
export type { ScheduledMessageEntity, DueSchedule, ScheduleAuthor } from './scheduled-message/scheduled-message.entity';
export { BusinessRepository } from './business/business.repository';
export { ConversationRepository } from './conversation/conversation.repository';
export type { StoredConversationEntity, SimulatedInbound } from './conversation/conversation.repository';
export { ContactRepository } from './contact/contact.repository';
export { MessageRepository } from './message/message.repository';
export type { StoredMessageEntity } from './message/message.repository';
export { ChannelRepository } from './channel/channel.repository';
export { defaultScheduledTemplateId } from './channel/default-scheduled-template';
export { TemplateRepository } from './template/template.repository';
export type { StoredTemplateEntity } from './template/template.repository';
export { TimelineEventRepository } from './timeline-event/timeline-event.repository';
export type { TimelineNote } from './timeline-event/timeline-event.repository';
export { AiEmployeeRepository } from './ai-employee/ai-employee.repository';
export { QuickReplyRepository } from './quick-reply/quick-reply.repository';
