export * from './models';
export { businessScope, scopedFilter } from './shared/business-scope';
export type { BusinessId, BusinessScope } from './shared/business-scope';
export { phoneLookupKey, usernameLookupKey, nameLookupKey } from './shared/lookup-keys';
export { connectMongo, ensureIndexes, isMongoConnected, disconnectMongo } from './mongo-connection';
export * from './seed';
export { contactSnapshotOf, fullName } from './contact/contact-snapshot';
export type { ContactSnapshot } from './contact/contact-snapshot';
export {
  claimOnce,
  claimMany,
  readClaim,
  claimsOfSchedule,
  scheduleClaimId,
  latestScheduleSlot,
  latestScheduleSlots,
  replaceScheduleSlot,
  releaseScheduleSlot,
  holdsScheduleSlot,
} from './schedule-claim/schedule-coordination';
export type { ScheduleClaim, ScheduleClaimKind, ScheduleClaimRequest, ScheduleSlot } from './schedule-claim/schedule-coordination';
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
export { advanceTesterClockOffset } from './tester-clock-advance/tester-clock-log';
export { isDuplicateKeyError } from './shared/duplicate-key';
export { ActionGroupRepository } from './action-group/action-group.repository';
export type { ActionGroupStore, ActionResultUpdate, RecordedResult } from './action-group/action-group.repository';
export { ACTION_STATUSES, FINAL_ACTION_STATUSES, GROUP_STATUSES, isFinalActionStatus } from './action-group/action-group.entity';
export type { ActionErrorRecord, ActionGroupEntity, ActionRecord, ActionStatus, FinalActionStatus, GroupStatus } from './action-group/action-group.entity';
export { WebhookDeliveryRepository } from './webhook-delivery/webhook-delivery.repository';
export type { DeliveryFailure, LeasedDelivery } from './webhook-delivery/webhook-delivery.repository';
export type { DeliveryStatus, WebhookDeliveryEntity } from './webhook-delivery/webhook-delivery.entity';
export { WebhookEndpointRepository } from './webhook/webhook.repository';
export type { WebhookEndpoint } from './webhook/webhook.repository';
