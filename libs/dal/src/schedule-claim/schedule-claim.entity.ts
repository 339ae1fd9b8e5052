import type { InferSchemaType } from 'mongoose';
import type { scheduleClaimSchema } from './schedule-claim.schema';

export type ScheduleClaimEntity = InferSchemaType<typeof scheduleClaimSchema>;
