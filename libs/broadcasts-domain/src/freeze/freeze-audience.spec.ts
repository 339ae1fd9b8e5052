import { type BroadcastEntity, type ClaimedBroadcast, businessScope } from '@cmsg/dal';
import { BUSINESS, aBroadcast, aContact } from '../testing/broadcast-builders';
import { type BroadcastData, type StoreFaults, inMemoryBroadcastStore } from '../testing/in-memory-broadcast-store';
import { type StoredAudienceContact, type StoredAudienceFile, inMemoryAudience } from '../testing/in-memory-broadcast-ports';
import { FREEZE_BATCH_SIZE, type FreezePorts, freezeNextBatch } from './freeze-audience';

const scope = businessScope(BUSINESS);
const start = new Date('2026-03-02T12:00:00Z');
const lease = (seconds: number) => new Date(start.getTime() + seconds * 1000);
const ids = (count: number) => Array.from({ length: count }, (_, index) => `c${String(index).padStart(4, '0')}`);

describe('freezeNextBatch', () => {
  let data: BroadcastData;
  let faults: StoreFaults;
  let contacts: StoredAudienceContact[];
  let files: StoredAudienceFile[];
  let ports: FreezePorts;

  beforeEach(() => {
    data = { broadcasts: [], recipients: [] };
    faults = {};
    contacts = [];
    files = [];
    ports = { store: inMemoryBroadcastStore(data, faults), audience: inMemoryAudience(contacts, files) };
  });

  const preparing = async (overrides: Partial<BroadcastEntity>): Promise<ClaimedBroadcast> => {
    data.broadcasts.push(aBroadcast({ status: 'preparing', started_at: null, dispatch_epoch: 0, due_at: start, ...overrides }));
    return (await ports.store.broadcasts.claim(scope, data.broadcasts[0]!, lease(15)))!;
  };
  const stored = () => data.broadcasts[0]!;
  const bySeq = () => [...data.recipients].sort((a, b) => a.seq - b.seq);

  it('freezes a filter audience in batches of 500 in contact order, moving the checkpoint and the lease after each', async () => {
    contacts.push(...ids(1001).reverse().map((id) => aContact(id)));
    const claimed = await preparing({});
    await expect(freezeNextBatch(ports, claimed, lease(30))).resolves.toBe('more');
    expect(data.recipients).toHaveLength(FREEZE_BATCH_SIZE);
    expect(stored()).toMatchObject({ freeze: { after_contact_id: 'c0499', rows: 500, next_seq: 500 }, due_at: lease(30) });
    expect(claimed).toMatchObject({ leaseUntil: lease(30), broadcast: { freeze: { after_contact_id: 'c0499', next_seq: 500 } } });

    await expect(freezeNextBatch(ports, claimed, lease(45))).resolves.toBe('more');
    await expect(freezeNextBatch(ports, claimed, lease(60))).resolves.toBe('more');
    expect(stored()).toMatchObject({ freeze: { after_contact_id: 'c1000', rows: 1001, next_seq: 1001 }, due_at: lease(60) });
    await expect(freezeNextBatch(ports, claimed, lease(75))).resolves.toBe('done');

    const recipients = bySeq();
    expect(recipients.map((recipient) => recipient.seq)).toEqual(Array.from({ length: 1001 }, (_, index) => index));
    expect(recipients.map((recipient) => recipient.contact_id)).toEqual(ids(1001));
    expect(new Set(recipients.map((recipient) => recipient._id)).size).toBe(1001);
    expect(recipients[0]).toMatchObject({ business_id: BUSINESS, broadcast_id: 'bc1', status: 'pending', conversation_id: 'conv-c0000', variables: [{ index: 1, value: 'Ana' }] });
  });

  it('freezes only the contacts the filter matches on the channel', async () => {
    contacts.push(aContact('c1', { attributes: { plan: 'gold' } }), aContact('c2'), aContact('c3', { attributes: { plan: 'gold' }, channel_id: 'ch2' }));
    const claimed = await preparing({ audience: { kind: 'filter', filter: { plan: 'gold' } } });
    await freezeNextBatch(ports, claimed, lease(30));
    expect(data.recipients.map((recipient) => recipient.contact_id)).toEqual(['c1']);
  });

  it('classifies a contact list in order: opted_out for the template category, invalid_phone, missing_variable, duplicates and erased contacts', async () => {
    contacts.push(
      aContact('ok'),
      aContact('opted', { consent: { marketing: 'opted_out', utility: 'unknown' } }),
      aContact('utility-only', { consent: { marketing: 'unknown', utility: 'opted_out' } }),
      aContact('bad-phone', { phone: '12345' }),
      aContact('nameless', { first_name: null }),
      aContact('elsewhere', { channel_id: 'ch2' }),
    );
    const claimed = await preparing({
      variables: [{ index: 1, value: '{{contact.first_name}}' }],
      audience: { kind: 'contacts', contact_ids: ['ok', 'opted', 'utility-only', 'bad-phone', 'nameless', 'ok', 'erased', 'elsewhere'] },
    });
    await expect(freezeNextBatch(ports, claimed, lease(30))).resolves.toBe('more');
    expect(bySeq().map(({ seq, dedupe_key, contact_id, status, reason }) => ({ seq, dedupe_key, contact_id, status, reason }))).toEqual([
      { seq: 0, dedupe_key: 'ok', contact_id: 'ok', status: 'pending', reason: null },
      { seq: 1, dedupe_key: 'opted', contact_id: 'opted', status: 'skipped', reason: 'opted_out' },
      { seq: 2, dedupe_key: 'utility-only', contact_id: 'utility-only', status: 'pending', reason: null },
      { seq: 3, dedupe_key: 'bad-phone', contact_id: 'bad-phone', status: 'skipped', reason: 'invalid_phone' },
      { seq: 4, dedupe_key: 'nameless', contact_id: 'nameless', status: 'skipped', reason: 'missing_variable' },
      { seq: 5, dedupe_key: 'dup:5', contact_id: 'ok', status: 'skipped', reason: 'duplicate' },
      { seq: 6, dedupe_key: 'erased', contact_id: null, status: 'skipped', reason: 'invalid_row' },
      { seq: 7, dedupe_key: 'elsewhere', contact_id: null, status: 'skipped', reason: 'invalid_row' },
    ]);
    expect(bySeq()[5]).toMatchObject({ conversation_id: null, variables: [] });
    expect(stored().freeze).toMatchObject({ rows: 8, next_seq: 8 });
    await expect(freezeNextBatch(ports, claimed, lease(45))).resolves.toBe('done');
  });

  it('freezes a contact list of more than 500 from where its checkpoint stands', async () => {
    const list = ids(700);
    contacts.push(...list.map((id) => aContact(id)));
    const claimed = await preparing({ audience: { kind: 'contacts', contact_ids: list } });
    await freezeNextBatch(ports, claimed, lease(30));
    expect(stored().freeze).toMatchObject({ rows: 500, next_seq: 500 });
    await freezeNextBatch(ports, claimed, lease(45));
    expect(stored().freeze).toMatchObject({ rows: 700, next_seq: 700 });
    await expect(freezeNextBatch(ports, claimed, lease(60))).resolves.toBe('done');
    expect(bySeq().map((recipient) => recipient.contact_id)).toEqual(list);
  });

  it('inserts nothing twice when a batch is frozen again after a crash between its insert and its checkpoint', async () => {
    contacts.push(aContact('a'), aContact('b'), aContact('opted', { consent: { marketing: 'opted_out', utility: 'unknown' } }));
    await preparing({ audience: { kind: 'contacts', contact_ids: ['a', 'b', 'a', 'opted', 'gone'] } });
    const read = { ...stored() };
    faults.failing = 'saveCheckpoint';
    const first = (await ports.store.broadcasts.claim(scope, read, lease(15)))!;
    await expect(freezeNextBatch(ports, first, lease(30))).rejects.toThrow('saveCheckpoint failed');
    const frozen = bySeq();
    expect(frozen).toHaveLength(5);
    expect(stored()).toMatchObject({ freeze: { rows: 0, next_seq: 0 }, due_at: lease(15) });

    // Another replica takes the step over once the lease ran out: the same checkpoint, the same seqs.
    delete faults.failing;
    const again = (await ports.store.broadcasts.claim(scope, stored(), lease(40)))!;
    await expect(freezeNextBatch(ports, again, lease(55))).resolves.toBe('more');
    expect(bySeq()).toEqual(frozen);
    expect(stored().freeze).toMatchObject({ rows: 5, next_seq: 5 });
    await expect(freezeNextBatch(ports, again, lease(70))).resolves.toBe('done');
  });

  // Product bug (freeze-audience.ts, readBatch for filter audiences): a batch frozen again after a crash
  // is re-read from the live contacts, not the ones the first run stored. A contact erased in between
  // moves every later contact one seq down; the last one of the batch lands on a seq the first run
  // already used, is dropped by the unique seq index, and the checkpoint moves past it: it never becomes
  // a recipient.
  it('freezes every contact of a filter audience when one is erased between a crash and the batch frozen again', async () => {
    const list = ids(FREEZE_BATCH_SIZE + 1);
    contacts.push(...list.map((id) => aContact(id)));
    await preparing({});
    faults.failing = 'saveCheckpoint';
    const first = (await ports.store.broadcasts.claim(scope, stored(), lease(15)))!;
    await expect(freezeNextBatch(ports, first, lease(30))).rejects.toThrow('saveCheckpoint failed');
    delete faults.failing;
    contacts.splice(1, 1);

    const again = (await ports.store.broadcasts.claim(scope, stored(), lease(40)))!;
    while ((await freezeNextBatch(ports, again, new Date(again.leaseUntil.getTime() + 15_000))) === 'more');
    expect(data.recipients.map((recipient) => recipient.contact_id)).toContain(list[FREEZE_BATCH_SIZE]);
  });

  it('answers lease_lost when another replica took the step over or the broadcast was cancelled, keeping what it inserted', async () => {
    contacts.push(aContact('a'), aContact('b'));
    const claimed = await preparing({});
    await ports.store.broadcasts.claim(scope, stored(), lease(20));
    await expect(freezeNextBatch(ports, claimed, lease(30))).resolves.toBe('lease_lost');
    expect(stored()).toMatchObject({ freeze: { after_contact_id: null, next_seq: 0 }, due_at: lease(20) });
    expect(data.recipients).toHaveLength(2);

    const mine = (await ports.store.broadcasts.claim(scope, stored(), lease(40)))!;
    await ports.store.broadcasts.transition(scope, 'bc1', ['preparing'], { set: { status: 'cancelled' } });
    await expect(freezeNextBatch(ports, mine, lease(55))).resolves.toBe('lease_lost');
  });

  describe('a file audience', () => {
    const header = 'phone,name,plan\n';
    const csv = [
      '+5215500000001,Ana,gold',
      '12,Bob,gold',
      '+52 155 0000 0001,Ana,gold',
      'only,two',
      '+5215500000002,Cy,',
      '+5215512345678,Dee,gold',
    ].map((line) => `${line}\n`);
    const fileAudience = (content: string) => {
      files.push({ business_id: BUSINESS, id: 'f1', module: 'broadcast_audiences', status: 'confirmed', mime_type: 'text/csv', content });
      return {
        audience: { kind: 'file' as const, file_id: 'f1', format: 'csv' as const, header: { columns: ['phone', 'name', 'plan'], end_offset: header.length } },
        variables: [{ index: 1, value: '{{row.name}}: {{row.plan}}' }],
      };
    };

    it("upserts each row's contact by its phone and classifies it with the row's values, in row order", async () => {
      contacts.push(aContact('c1', { consent: { marketing: 'opted_out', utility: 'unknown' } }));
      const claimed = await preparing(fileAudience(header + csv.join('')));
      await expect(freezeNextBatch(ports, claimed, lease(30))).resolves.toBe('more');
      expect(bySeq().map(({ seq, dedupe_key, contact_id, conversation_id, phone, row, status, reason, variables }) => ({ seq, dedupe_key, contact_id, conversation_id, phone, row, status, reason, variables }))).toEqual([
        { seq: 0, dedupe_key: 'phone-5215500000001', contact_id: 'phone-5215500000001', conversation_id: 'conv-phone-5215500000001', phone: '+5215500000001', row: 1, status: 'pending', reason: null, variables: [{ index: 1, value: 'Ana: gold' }] },
        { seq: 1, dedupe_key: 'row:2', contact_id: null, conversation_id: null, phone: '12', row: 2, status: 'skipped', reason: 'invalid_phone', variables: [] },
        { seq: 2, dedupe_key: 'dup:2', contact_id: 'phone-5215500000001', conversation_id: null, phone: '+5215500000001', row: 3, status: 'skipped', reason: 'duplicate', variables: [] },
        { seq: 3, dedupe_key: 'row:4', contact_id: null, conversation_id: null, phone: null, row: 4, status: 'skipped', reason: 'invalid_row', variables: [] },
        { seq: 4, dedupe_key: 'phone-5215500000002', contact_id: 'phone-5215500000002', conversation_id: 'conv-phone-5215500000002', phone: '+5215500000002', row: 5, status: 'skipped', reason: 'missing_variable', variables: [] },
        { seq: 5, dedupe_key: 'c1', contact_id: 'c1', conversation_id: 'conv-c1', phone: '+5215512345678', row: 6, status: 'skipped', reason: 'opted_out', variables: [] },
      ]);
      expect(stored().freeze).toEqual({ after_contact_id: null, rows: 6, offset: header.length + csv.join('').length, next_seq: 6 });
      expect(contacts.map((contact) => contact.id)).toEqual(['c1', 'phone-5215500000001', 'phone-5215500000002']);
      await expect(freezeNextBatch(ports, claimed, lease(45))).resolves.toBe('done');
    });

    it('goes on after 500 rows from the byte offset of its checkpoint', async () => {
      const lines = Array.from({ length: 501 }, (_, index) => `+52155${String(index).padStart(8, '0')},N${index},gold\n`);
      const claimed = await preparing(fileAudience(header + lines.join('')));
      await freezeNextBatch(ports, claimed, lease(30));
      expect(stored().freeze).toMatchObject({ rows: 500, offset: header.length + lines.slice(0, 500).join('').length, next_seq: 500 });
      await expect(freezeNextBatch(ports, claimed, lease(45))).resolves.toBe('more');
      expect(bySeq()[500]).toMatchObject({ seq: 500, row: 501, contact_id: 'phone-5215500000500', variables: [{ index: 1, value: 'N500: gold' }] });
      await expect(freezeNextBatch(ports, claimed, lease(60))).resolves.toBe('done');
      expect(data.recipients).toHaveLength(501);
    });

    it('gives the same recipients and creates no contact twice when a batch is frozen again after a crash', async () => {
      await preparing(fileAudience(header + csv.join('')));
      faults.failing = 'saveCheckpoint';
      const first = (await ports.store.broadcasts.claim(scope, stored(), lease(15)))!;
      await expect(freezeNextBatch(ports, first, lease(30))).rejects.toThrow('saveCheckpoint failed');
      const frozen = bySeq();
      const created = contacts.map((contact) => contact.id);
      delete faults.failing;
      const again = (await ports.store.broadcasts.claim(scope, stored(), lease(40)))!;
      await expect(freezeNextBatch(ports, again, lease(55))).resolves.toBe('more');
      expect(bySeq()).toEqual(frozen);
      expect(contacts.map((contact) => contact.id)).toEqual(created);
    });
  });
});
