import { BusinessModel, ConversationModel, ConversationScheduleSlotModel, ScheduleClaimModel, ScheduledMessageModel } from '@cmsg/dal';

/** The indexes the scheduler's queries use (declared on the models in @cmsg/dal). */
export async function ensureSchedulingIndexes(): Promise<void> {
  for (const model of [ScheduledMessageModel, ScheduleClaimModel, ConversationScheduleSlotModel, ConversationModel, BusinessModel]) await model.createIndexes();
}
