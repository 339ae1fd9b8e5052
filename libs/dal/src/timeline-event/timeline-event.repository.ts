import type { BusinessScope } from '../shared/business-scope';
import { isDuplicateKeyError } from '../shared/duplicate-key';
import { TimelineEventModel } from './timeline-event.schema';

/** A note on a conversation's timeline, under an id its writer chose. */
export interface TimelineNote {
  _id: string;
  conversation_id: string;
  body: string;
  author: { type: string; uuid: string | null };
  created_at: Date;
}

export class TimelineEventRepository {
  /** Inserts the note unless a note with its id exists (a repeated write); true when this call wrote it. */
  async insertNoteOnce(scope: BusinessScope, note: TimelineNote): Promise<boolean> {
    try {
      await TimelineEventModel.create({ ...note, business_id: scope.businessId, kind: 'note' });
      return true;
    } catch (error) {
      if (isDuplicateKeyError(error)) return false;
      throw error;
    }
  }
}
