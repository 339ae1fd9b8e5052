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
export type { ConnectMongoOptions } from './mongo-connection';
export { queryShapesOf, describeQueryShape, describeFilter, conjunctionsOf } from './query-shapes/query-shape';
export type { QueryShape, QueryCommand, FilterShape, ConditionClass } from './query-shapes/query-shape';
export type { QueryShapeLog, RecordedQueryShape } from './query-shapes/query-shape-recorder';
