import { type BroadcastEntity, type ClaimedBroadcast, businessScope } from '@cmsg/dal';
import { createBroadcast } from '../create/create-broadcast.usecase';
import { previewBroadcast } from '../create/preview-broadcast.usecase';
import { BUSINESS, OTHER_BUSINESS, aBroadcast, aContact, aDefinition, aDefinitionWorld } from '../testing/broadcast-builders';
import { type BroadcastData, inMemoryBroadcastStore } from '../testing/in-memory-broadcast-store';
import { type StoredAudienceContact, type StoredAudienceFile, inMemoryAudience, inMemoryDefinitions, testClock } from '../testing/in-memory-broadcast-ports';
import { MAX_AUDIENCE_ROWS } from '../audience-file';
import { freezeNextBatch } from './freeze-audience';
import { fileRowsFrom } from './file-rows';
import { FILE_FREEZE_LIMITS } from './freeze-file-batch';
import { PhoneKeySet } from './phone-key-set';

const scope = businessScope(BUSINESS);
const start = new Date('2026-03-02T12:00:00Z');
const lease = (seconds: number) => new Date(start.getTime() + seconds * 1000);

const CSV = [
  'Phone,name,code',
  '+52 55 1000 0001,Ana,A1', // existing contact c1
  '5255100000002,Bea,B2', // new
  '+525510000001,Dup,D1', // same digits as row 1: duplicate
  '12345,Bad,X1', // invalid_phone
  '5255100000003,Cy,ok',
  '5255100000004,two fields', // invalid_row: 2 fields where the header has 3
].join('\n');

function csvFile(content: string, overrides: Partial<StoredAudienceFile> = {}): StoredAudienceFile {
  return { business_id: BUSINESS, id: 'f1', module: 'broadcast_audiences', status: 'confirmed', mime_type: 'text/csv', content, ...overrides };
}

describe('file audiences (scratch)', () => {
  let contacts: StoredAudienceContact[];
  let files: StoredAudienceFile[];
  let data: BroadcastData;
  const clock = testClock('2026-03-02T12:00:00Z');
  const ports = () => {
    const audience = inMemoryAudience(contacts, files, 7);
    return { store: inMemoryBroadcastStore(data), definitions: inMemoryDefinitions(aDefinitionWorld()), audience, clock, newId: () => 'bc1' };
  };
  beforeEach(() => {
    contacts = [aContact('c1', { phone: '+525510000001', first_name: 'Ana' })];
    files = [];
    data = { broadcasts: [], recipients: [] };
  });

  describe('create', () => {
    it('stores a CSV audience with its header and a row placeholder that names a column', async () => {
      files.push(csvFile('phone,code\n1,2\n'));
      const created = await createBroadcast(ports(), scope, aDefinition({ audience: { kind: 'file', file_uuid: 'f1' }, variables: [{ index: 1, value: '{{row.code}} {{row.phone}}' }] }));
      expect(created.audience).toEqual({ kind: 'file', file_id: 'f1', format: 'csv', header: { columns: ['phone', 'code'], end_offset: 11 } });
    });
    it('stores NDJSON without a header', async () => {
      files.push(csvFile('{"phone":"1"}\n', { mime_type: 'application/x-ndjson' }));
      const created = await createBroadcast(ports(), scope, aDefinition({ audience: { kind: 'file', file_uuid: 'f1' }, variables: [{ index: 1, value: '{{row.anything}}' }] }));
      expect(created.audience).toEqual({ kind: 'file', file_id: 'f1', format: 'ndjson' });
    });
    it.each([
      ['missing', []],
      ['another module', [csvFile('phone\n1\n', { module: 'api_messages' })]],
      ['pending', [csvFile('phone\n1\n', { status: 'pending' })]],
      ['another business', [csvFile('phone\n1\n', { business_id: OTHER_BUSINESS })]],
      ['another type', [csvFile('phone\n1\n', { mime_type: 'text/plain' })]],
    ])('FILE_NOT_FOUND: %s', async (_what, stored) => {
      files.push(...(stored as StoredAudienceFile[]));
      await expect(createBroadcast(ports(), scope, aDefinition({ audience: { kind: 'file', file_uuid: 'f1' } }))).rejects.toMatchObject({ code: 'FILE_NOT_FOUND', httpStatus: 404 });
      expect(data.broadcasts).toHaveLength(0);
    });
    it('400 for a CSV without a phone column, and for a row placeholder no column has', async () => {
      files.push(csvFile('name,code\n1,2\n'));
      await expect(createBroadcast(ports(), scope, aDefinition({ audience: { kind: 'file', file_uuid: 'f1' } }))).rejects.toMatchObject({ code: 'INVALID_REQUEST', httpStatus: 400, message: expect.stringContaining('phone column') });
      files[0] = csvFile('phone,name\n1,2\n');
      await expect(
        createBroadcast(ports(), scope, aDefinition({ audience: { kind: 'file', file_uuid: 'f1' }, variables: [{ index: 1, value: '{{row.code|x}}' }] })),
      ).rejects.toMatchObject({ code: 'INVALID_REQUEST', message: expect.stringContaining('"code"') });
    });
  });

  describe('freeze', () => {
    const preparing = async (overrides: Partial<BroadcastEntity>, store: ReturnType<typeof ports>['store']): Promise<ClaimedBroadcast> => {
      data.broadcasts.push(aBroadcast({ status: 'preparing', started_at: null, dispatch_epoch: 0, due_at: start, ...overrides }));
      return (await store.broadcasts.claim(scope, data.broadcasts[0]!, lease(15)))!;
    };
    const csvAudience = (content: string) => {
      files.push(csvFile(content));
      const end = content.indexOf('\n') + 1;
      return { kind: 'file' as const, file_id: 'f1', format: 'csv' as const, header: { columns: content.slice(0, end - 1).split(','), end_offset: end } };
    };

    it('freezes rows in order with their reasons and row values, in small batches, and the same again after a crash', async () => {
      const content = `${CSV}\n`;
      const audience = csvAudience(content);
      const p = ports();
      const claimed = await preparing({ audience, variables: [{ index: 1, value: '{{row.code}}-{{contact.first_name|there}}-{{row.Phone}}' }] }, p.store);
      const limits = FILE_FREEZE_LIMITS.rows;
      FILE_FREEZE_LIMITS.rows = 2;
      try {
        const before = structuredClone(claimed.broadcast);
        await expect(freezeNextBatch(p, claimed, lease(30))).resolves.toBe('more');
        const firstTwo = data.recipients.map(({ _id: _x, ...rest }) => rest);
        // A crash before the checkpoint: the same batch again.
        const again = { ...claimed, broadcast: before };
        data.broadcasts[0]!.freeze = before.freeze;
        await expect(freezeNextBatch(p, again, lease(30))).resolves.toBe('more');
        expect(data.recipients.map(({ _id: _x, ...rest }) => rest)).toEqual(firstTwo);
        let progress;
        do progress = await freezeNextBatch(p, again, lease(30));
        while (progress === 'more');
        expect(progress).toBe('done');
      } finally {
        FILE_FREEZE_LIMITS.rows = limits;
      }
      const recipients = [...data.recipients].sort((a, b) => a.seq - b.seq);
      expect(recipients.map((r) => [r.seq, r.row, r.status, r.reason, r.contact_id, r.variables[0]?.value ?? null])).toEqual([
        [0, 1, 'pending', null, 'c1', 'A1-Ana-+52 55 1000 0001'],
        [1, 2, 'pending', null, 'phone-5255100000002', 'B2-there-5255100000002'],
        [2, 3, 'skipped', 'duplicate', 'c1', null],
        [3, 4, 'skipped', 'invalid_phone', null, null],
        [4, 5, 'pending', null, 'phone-5255100000003', 'ok-there-5255100000003'],
        [5, 6, 'skipped', 'invalid_row', null, null],
      ]);
      expect(data.broadcasts[0]!.freeze).toMatchObject({ rows: 6, next_seq: 6 });
    });

    it('looks the rows\' phones up 100 at a time, creates those no contact has together, upserts one whose contact lacks its conversation', async () => {
      const phones = Array.from({ length: 250 }, (_, index) => `52551${String(index).padStart(8, '0')}`);
      contacts.push(...phones.slice(0, 200).map((phone, index) => aContact(`known-${index}`, { phone: `+${phone}`, conversation_id: index === 7 ? null : `conv-known-${index}` })));
      const audience = csvAudience(`phone\n${phones.join('\n')}\n`);
      const p = ports();
      const lookups: number[] = [];
      const upserted: string[] = [];
      const createdTogether: string[][] = [];
      const { contactsByPhoneKeys, upsertByPhone, createByPhones } = p.audience;
      p.audience.contactsByPhoneKeys = async (...args) => {
        lookups.push(args[2].length);
        return contactsByPhoneKeys(...args);
      };
      p.audience.upsertByPhone = async (...args) => {
        upserted.push(args[2]);
        return upsertByPhone(...args);
      };
      p.audience.createByPhones = async (...args) => {
        createdTogether.push([...args[2]]);
        return createByPhones(...args);
      };
      const claimed = await preparing({ audience }, p.store);
      while ((await freezeNextBatch(p, claimed, lease(30))) === 'more');
      expect(lookups).toEqual([100, 100, 50]);
      // One batch of 250 rows: its 50 new phones created in one call.
      expect(createdTogether).toEqual([phones.slice(200)]);
      expect(upserted).toEqual([phones[7]]);
      const recipients = [...data.recipients].sort((a, b) => a.seq - b.seq);
      expect(recipients.map((recipient) => recipient.contact_id)).toEqual([...phones.slice(0, 200).map((_, index) => `known-${index}`), ...phones.slice(200).map((phone) => `phone-${phone}`)]);
      expect(recipients.every((recipient) => recipient.status === 'pending')).toBe(true);
    });

    it('stops at the 1,000,000th row', async () => {
      files.push(csvFile('phone\n5255100000001\n5255100000002\n5255100000003\n'));
      const source = { kind: 'file' as const, file_id: 'f1', format: 'csv' as const, header: { columns: ['phone'], end_offset: 6 } };
      const rows = [];
      for await (const row of fileRowsFrom(inMemoryAudience(contacts, files), scope, source, { startOffset: 6, startRow: MAX_AUDIENCE_ROWS - 1 })) rows.push(row.row);
      expect(rows).toEqual([MAX_AUDIENCE_ROWS - 1, MAX_AUDIENCE_ROWS]);
    });
  });

  describe('preview', () => {
    it('counts rows without creating contacts', async () => {
      files.push(csvFile(`${CSV}\n"x,bad`));
      const before = contacts.length;
      const preview = await previewBroadcast(ports(), scope, aDefinition({ audience: { kind: 'file', file_uuid: 'f1' }, variables: [{ index: 1, value: '{{row.code}} {{contact.first_name}}' }] }));
      expect(contacts).toHaveLength(before);
      expect(preview).toMatchObject({ total: 7, skipped_by_reason: { duplicate: 1, invalid_phone: 1, invalid_row: 2, missing_variable: 2 }, estimated_seconds: 1 });
    });
  });

  describe('PhoneKeySet', () => {
    it('agrees with a Set over many keys', () => {
      const set = new PhoneKeySet();
      const reference = new Set<string>();
      let seed = 7;
      for (let i = 0; i < 200_000; i++) {
        seed = (seed * 1103515245 + 12345) % 2 ** 31;
        const key = String(10_000_000 + (seed % 300_000)).padStart(8 + (seed % 8), '0');
        if (set.add(key) === reference.has(key)) throw new Error(`disagree on ${key}`);
        reference.add(key);
      }
      expect(set.size).toBe(reference.size);
      expect(set.add('0012345678')).toBe(true);
      expect(set.add('12345678')).toBe(!reference.has('12345678'));
      expect(() => set.add('1234567')).toThrow(RangeError);
    });
  });
});
