import { EVENT_TYPES } from '@cmsg/api-schemas';
import { OUTBOX_ENTRY_KINDS, TIMELINE_EVENT_TYPES, entryKindOf } from './entry-types';

describe('outbox entry types', () => {
  it('records every public event type but ping as an event of its own type', () => {
    const recorded = Object.entries(OUTBOX_ENTRY_KINDS)
      .filter(([, kind]) => kind.publicEvent)
      .map(([type]) => type);
    expect(recorded.sort()).toEqual(EVENT_TYPES.filter((type) => type !== 'ping').sort());
  });

  it('gives each timeline event type of CONTRACT 9.1 exactly one entry type', () => {
    const rows = Object.values(OUTBOX_ENTRY_KINDS).flatMap((kind) => (kind.timeline ? [kind.timeline] : []));
    expect(rows.sort()).toEqual([...TIMELINE_EVENT_TYPES].sort());
  });

  it('knows no other type', () => {
    expect(entryKindOf('conversation.customer_message_received')).toBeUndefined();
    expect(entryKindOf('toString')).toBeUndefined();
    expect(entryKindOf('scheduled_message.fired')).toEqual({ publicEvent: false, timeline: 'schedule_fired' });
  });
});
