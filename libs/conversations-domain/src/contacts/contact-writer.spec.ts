import { type BusinessScope, type ContactEntity, type OutboxEntry, businessScope } from '@cmsg/dal';
import type { ContactPorts } from './contact-ports';
import { writeContactEdit } from './contact-writer';

const scope = businessScope('b1');
const author = { type: 'api_token' as const, uuid: 't1', name: null };

/** One stored contact behind a compare-and-set store, and every recordQuietly call in order. */
function contactWorld() {
  let stored = { _id: 'ana', business_id: 'b1', channel_id: 'ch1', revision: 0, outbox: [] as OutboxEntry[] } as unknown as ContactEntity;
  const recordings: { entries: readonly OutboxEntry[] }[] = [];
  let holdNext = false;
  const ports: Pick<ContactPorts, 'contacts' | 'events' | 'clock' | 'ids'> = {
    contacts: {
      findById: async (_scope: BusinessScope, id: string) => (id === stored._id ? structuredClone(stored) : null),
      updateAtRevision: async (_scope, _id, revision, change) => {
        if ((stored.revision ?? 0) !== revision) return { outcome: 'stale' };
        const next = structuredClone(stored) as unknown as Record<string, unknown>;
        for (const [path, value] of Object.entries(change.set)) setPath(next, path, value);
        next['revision'] = revision + 1;
        next['outbox'] = [...((stored.outbox ?? []) as OutboxEntry[]), ...change.outbox];
        stored = next as unknown as ContactEntity;
        return { outcome: 'updated', contact: structuredClone(stored) };
      },
    } as ContactPorts['contacts'],
    events: {
      recordQuietly: async (_collection, _scope, _id, entries) => {
        recordings.push({ entries });
        if (holdNext) {
          holdNext = false;
          await new Promise<never>(() => {});
        }
      },
    },
    clock: () => new Date('2026-11-29T10:00:00Z'),
    ids: { random: (() => { let n = 0; return () => `e${++n}`; })() } as ContactPorts['ids'],
  };
  return {
    ports,
    recordings,
    current: () => stored,
    /** The next writer's recording does not finish until the test ends: as a writer stalled after its update. */
    stallNextRecording: () => (holdNext = true),
  };
}

function setPath(target: Record<string, unknown>, path: string, value: unknown): void {
  const [head, ...rest] = path.split('.');
  if (rest.length === 0) target[head!] = value;
  else setPath((target[head!] ??= {}) as Record<string, unknown>, rest.join('.'), value);
}

const consentOf = (entries: readonly OutboxEntry[]) => entries.map((entry) => [entry.type, (entry.data as { from?: string }).from, (entry.data as { to?: string }).to]);

describe('writeContactEdit', () => {
  it('pushes one contact.consent_changed per changed category in the update and records it', async () => {
    const world = contactWorld();
    await writeContactEdit(world.ports, scope, world.current(), { consent: { marketing: 'opted_in' }, consentSource: 'api' }, author, 'conv-ana');
    expect(world.recordings.map((recording) => consentOf(recording.entries))).toEqual([[['contact.consent_changed', 'unknown', 'opted_in']]]);
  });

  it("records an earlier writer's still-pending entries before its own, so sequences follow the order of the changes", async () => {
    const world = contactWorld();
    await writeContactEdit(world.ports, scope, world.current(), { consent: { marketing: 'opted_in' }, consentSource: 'api' }, author, 'conv-ana');
    world.stallNextRecording();
    void writeContactEdit(world.ports, scope, world.current(), { consent: { marketing: 'opted_out' }, consentSource: 'keyword' }, author, 'conv-ana');
    await new Promise((resolve) => setImmediate(resolve));
    await writeContactEdit(world.ports, scope, world.current(), { consent: { marketing: 'opted_in' }, consentSource: 'api' }, author, 'conv-ana');
    // The first write's entry was recorded but this store never pulls it: it stays pending, as before a pull.
    expect(world.recordings.map((recording) => consentOf(recording.entries))).toEqual([
      [['contact.consent_changed', 'unknown', 'opted_in']],
      [
        ['contact.consent_changed', 'unknown', 'opted_in'],
        ['contact.consent_changed', 'opted_in', 'opted_out'],
      ],
      [
        ['contact.consent_changed', 'unknown', 'opted_in'],
        ['contact.consent_changed', 'opted_in', 'opted_out'],
        ['contact.consent_changed', 'opted_out', 'opted_in'],
      ],
    ]);
  });

  it('records nothing when the edit changes nothing', async () => {
    const world = contactWorld();
    await writeContactEdit(world.ports, scope, world.current(), { consent: { marketing: 'opted_in' } }, author, null);
    await writeContactEdit(world.ports, scope, world.current(), { consent: { marketing: 'opted_in' } }, author, null);
    expect(world.recordings).toHaveLength(1);
  });
});
