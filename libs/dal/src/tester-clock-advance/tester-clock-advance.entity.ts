import type { InferSchemaType } from 'mongoose';
import type { testerClockAdvanceSchema } from './tester-clock-advance.schema';

export type TesterClockAdvanceEntity = InferSchemaType<typeof testerClockAdvanceSchema>;
