export { executeFiredScheduledMessage, abandonFiredScheduledMessage } from './execute-fired-scheduled-message';
export type { ScheduledMessagePorts } from './execute-fired-scheduled-message';
export { MongoFiredSchedules } from './fired-schedules';
export type { FiredSchedules } from './fired-schedules';
