export { executeFiredScheduledMessage, abandonFiredScheduledMessage } from './execute-fired-scheduled-message';
export type { ScheduledMessagePorts } from './execute-fired-scheduled-message';
export { MongoFiredScheduleStore } from './fired-schedule.store';
export type { FiredSchedule, FiredScheduleStore } from './fired-schedule.store';
