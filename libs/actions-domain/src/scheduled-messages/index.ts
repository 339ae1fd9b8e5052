export { executeFiredScheduledMessage, abandonFiredScheduledMessage } from './execute-fired-scheduled-message.usecase';
export type { ScheduledMessagePorts } from './execute-fired-scheduled-message.usecase';
export { MongoFiredSchedules } from './fired-schedules';
export type { FiredSchedules } from './fired-schedules';
