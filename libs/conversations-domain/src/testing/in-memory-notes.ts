import type { BusinessScope, NewTimelineEvent } from '@cmsg/dal';
import type { NoteStore } from '../timeline/add-note.usecase';
import { RecordingOutbox } from './recording-outbox';

interface StoredNote extends NewTimelineEvent {
  businessId: string;
}

/** The timeline entries in memory (ids unique across businesses, as _id is). */
export class InMemoryNotes implements NoteStore {
  readonly rows: StoredNote[] = [];

  async insertIfAbsent(scope: BusinessScope, note: NewTimelineEvent): Promise<boolean> {
    if (this.rows.some((row) => row.id === note.id)) return false;
    this.rows.push({ ...note, businessId: scope.businessId });
    return true;
  }

  async findById(scope: BusinessScope, id: string) {
    const row = this.rows.find((candidate) => candidate.businessId === scope.businessId && candidate.id === id);
    return row ? { conversation_id: row.conversationId, created_at: row.createdAt } : null;
  }
}

/** NotePorts in memory: a settable clock, ids note-1, note-2, ... and a recording outbox. */
export function inMemoryNotePorts(now = new Date('2026-11-29T12:00:00.000Z')) {
  let counter = 0;
  const clock = { now };
  return {
    notes: new InMemoryNotes(),
    outbox: new RecordingOutbox(),
    clock: () => clock.now,
    setNow: (next: Date) => {
      clock.now = next;
    },
    ids: { random: () => `note-${(counter += 1)}` },
  };
}
