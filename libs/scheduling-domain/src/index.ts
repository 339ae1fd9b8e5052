export { randomIds, systemClock } from './ports';
export type {
  AiEmployeeDirectory,
  BusinessStore,
  ChannelStore,
  Clock,
  ConfirmedFileLookup,
  ContactStore,
  ConversationCommandPublisher,
  ConversationContextPort,
  ConversationStore,
  IdGenerator,
  MessageStore,
  QuickReplyDirectory,
  ScheduleStore,
  SchedulingPorts,
  TemplateDirectory,
} from './ports';
export { createScheduledMessageCommand } from './create/create-scheduled-message.command';
export type { CreateScheduledMessageCommand } from './create/create-scheduled-message.command';
export { createScheduledMessage } from './create/create-scheduled-message.usecase';
export type { CreateScheduledMessageDependencies } from './create/create-scheduled-message.usecase';
export { confirmedUploadLookup } from './create/confirmed-file-lookup';
export { getScheduledMessage } from './manage/get-scheduled-message.usecase';
export type { GetScheduledMessageDependencies } from './manage/get-scheduled-message.usecase';
export { cancelScheduledMessage } from './manage/cancel-scheduled-message.usecase';
export type { CancelScheduledMessageDependencies } from './manage/cancel-scheduled-message.usecase';
export { onConversationEvent } from './customer-reply/customer-reply-events';
export { FiringLoop } from './firing/firing-loop';
export type { FiringLoopOptions } from './firing/firing-loop';
export { FiringPass, DEFAULT_FIRING_OPTIONS } from './firing/firing-pass';
export type { FiringPassOptions, FiringPassDependencies } from './firing/firing-pass';
export { createTesterContact } from './tester/create-tester-contact.usecase';
export type { CreateTesterContactDependencies, CreateTesterContactInput } from './tester/create-tester-contact.usecase';
export { recordTesterInbound } from './tester/record-tester-inbound.usecase';
export type { RecordTesterInboundDependencies } from './tester/record-tester-inbound.usecase';
export { advanceTesterClock, MAX_TESTER_CLOCK_ADVANCE_SECONDS } from './tester/tester-clock.usecase';
export type { AdvanceTesterClockDependencies } from './tester/tester-clock.usecase';
export { listTesterMessages } from './tester/list-tester-messages.usecase';
export type { ListTesterMessagesDependencies } from './tester/list-tester-messages.usecase';
