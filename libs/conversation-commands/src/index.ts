export { ACTION_GROUP_SOURCES, ActionGroupCommandSchema, createActionGroupCommand } from './action-group-command';
export type { ActionGroupCommand, ActionGroupSource } from './action-group-command';
export { AiRunCommandSchema, createAiRunCommand } from './ai-run-command';
export type { AiRunCommand, AiRunCommandFields } from './ai-run-command';
export { ScheduledMessageCommandSchema, createScheduledMessageCommand } from './scheduled-message-command';
export type { ScheduledMessageCommand } from './scheduled-message-command';
export {
  SCHEDULED_MESSAGE_STATUSES,
  PUBLIC_SCHEDULED_MESSAGE_STATUSES,
  SCHEDULE_HISTORY_EVENTS,
  SCHEDULE_DELIVERY_PATHS,
  SCHEDULE_HISTORY_LIMIT,
  SYSTEM_ACTOR,
  publicScheduledMessageStatus,
  scheduleHistoryEntry,
  scheduledOperationId,
  scheduleContextNoteId,
} from './scheduled-message-lifecycle';
export type {
  ScheduledMessageStatus,
  PublicScheduledMessageStatus,
  ScheduleHistoryEvent,
  ScheduleHistoryEntry,
  ScheduleActor,
  ScheduleDeliveryPath,
} from './scheduled-message-lifecycle';
export { CUSTOMER_MESSAGE_RECEIVED, ConversationEventEnvelopeSchema, CustomerMessageReceivedDataSchema } from './conversation-events';
export type { ConversationEventEnvelope, CustomerMessageReceivedData } from './conversation-events';
