import type { OutboxAuthor } from '@cmsg/dal';

/** A note as a timeline item (CONTRACT 9.1): the `data` of note.created. */
export function noteTimelineItem(note: { id: string; body: string; createdAt: Date }, author: OutboxAuthor): Record<string, unknown> {
  return { uuid: note.id, kind: 'note', created_at: note.createdAt.toISOString(), author, note: note.body };
}
