import { createReadStream } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AudienceFileError } from './audience-file-error';
import { chunked, collect, failureOf } from './audience-file.fixture';
import type { AudienceReadItem } from './audience-row';
import { readCsvHeader } from './csv-header';
import { readAudienceRows } from './read-audience-rows';

const readCsv = (content: string | Buffer, options: { maxRows?: number; maxBytes?: number; chunkSize?: number } = {}) =>
  collect(readAudienceRows(chunked(content, options.chunkSize), { format: 'csv', ...options }));

async function fileProblemOf(content: string): Promise<{ problem: string; code: string; httpStatus: number; message: string }> {
  const error = await failureOf(() => readCsv(content));
  if (!(error instanceof AudienceFileError)) throw error;
  return { problem: error.problem, code: error.code, httpStatus: error.httpStatus, message: error.message };
}

describe('readAudienceRows (CSV)', () => {
  it('reads the phone (trimmed) and the other columns as written, numbering data rows from 1', async () => {
    const lines = [' Phone , first name ,code\n', ' +5511999990001 ,Ana, A1\n', '5511999990002,"Silva, João",B2\n'];
    const rows = await readCsv(lines.join(''));
    const endOf = (line: number) => Buffer.byteLength(lines.slice(0, line + 1).join(''));
    expect(rows).toEqual([
      { kind: 'valid', row: 1, endOffset: endOf(1), phone: '+5511999990001', columns: { 'first name': 'Ana', code: ' A1' } },
      { kind: 'valid', row: 2, endOffset: endOf(2), phone: '5511999990002', columns: { 'first name': 'Silva, João', code: 'B2' } },
    ]);
    expect(endOf(2)).toBe(83);
  });

  it('skips a bad row as invalid and goes on with the next', async () => {
    const rows = await readCsv('phone,code\n1,a,extra\n  ,b\n"2,c\n');
    expect(rows.map((row) => (row.kind === 'invalid' ? [row.row, row.reason] : [row.row, row.kind]))).toEqual([
      [1, 'the row has 3 fields where the header has 2'],
      [2, 'the phone is empty'],
      [3, 'a quoted field is not closed'],
    ]);
  });

  it('does not number blank lines (they are not rows)', async () => {
    const rows = await readCsv('\n\nphone\n1\n\n   \n2\n\n');
    expect(rows.map((row) => [row.row, row.kind === 'valid' && row.phone])).toEqual([
      [1, '1'],
      [2, '2'],
    ]);
  });

  it('skips a field over 64 KiB and a line over 1 MiB as invalid rows', async () => {
    const longField = 'x'.repeat(64 * 1024 + 1);
    const longLine = Array.from({ length: 20 }, () => 'y'.repeat(60 * 1024)).join(',');
    const rows = await readCsv(`phone,note\n1,${longField}\n${longLine}\n2,ok\n`, { chunkSize: 4096 });
    expect(rows.map((row) => (row.kind === 'invalid' ? row.reason : row.kind))).toEqual([
      'a field is longer than 65536 bytes',
      'the row is longer than 1048576 bytes',
      'valid',
    ]);
  });

  it('keeps a column named __proto__ as a column', async () => {
    const [row] = await readCsv('phone,__proto__\n1,x\n');
    expect(row.kind === 'valid' && Object.keys(row.columns)).toEqual(['__proto__']);
  });

  describe('a file that cannot be read is refused as a whole (400)', () => {
    it.each([
      ['name,code\n1,2\n', 'missing_phone_column', 'the header row has no phone column'],
      ['phone,code,code\n', 'duplicate_column', 'the header names the column "code" twice'],
      ['phone,PHONE\n', 'duplicate_column', 'the header has more than one phone column (phone, PHONE)'],
      ['phone,,code\n', 'empty_column_name', 'column 2 of the header has no name'],
      ['', 'no_header', 'the file is empty'],
      ['\n  \n', 'no_header', 'the file is empty'],
      ['"phone,code\n', 'malformed_header', 'the header row is not valid CSV: a quoted field is not closed'],
    ])('%j: %s', async (content, problem, message) => {
      const error = await fileProblemOf(content);
      expect(error).toMatchObject({ problem, code: 'INVALID_REQUEST', httpStatus: 400 });
      expect(error.message).toContain(`Invalid request: audience.file_uuid: ${message}`);
    });

    it('over maxBytes', async () => {
      const error = await failureOf(() => readCsv('phone\n1\n2\n3\n', { maxBytes: 10, chunkSize: 4 }));
      expect(error).toBeInstanceOf(AudienceFileError);
      expect(error).toMatchObject({ problem: 'too_large', code: 'FILE_TOO_LARGE', httpStatus: 400 });
    });
  });

  describe('maxRows', () => {
    it('stops after maxRows and reports where the unread rows start', async () => {
      const rows = await readCsv('phone\n1\n2\n\n3\n4\n', { maxRows: 2 });
      expect(rows).toEqual([
        expect.objectContaining({ kind: 'valid', row: 1, phone: '1', endOffset: 8 }),
        expect.objectContaining({ kind: 'valid', row: 2, phone: '2', endOffset: 10 }),
        { kind: 'truncated', row: 3, endOffset: 10 },
      ]);
    });

    it('reports nothing when the file holds exactly maxRows rows, blank lines after them aside', async () => {
      const rows = await readCsv('phone\n1\n2\n\n', { maxRows: 2 });
      expect(rows.map((row) => row.kind)).toEqual(['valid', 'valid']);
    });
  });

  describe('resuming', () => {
    // CRLF, a BOM, multi-byte characters, a quoted line break, blank lines and an invalid row.
    const file = Buffer.concat([
      Buffer.from([0xef, 0xbb, 0xbf]),
      Buffer.from('phone,name,note\r\n1,José,"two\r\nlines"\r\n\r\n2,Zoë 😀,x\r\n3,bad\r\n4,"a ""quote""",\r\n5,ñ,last'),
    ]);

    it('gives the header and the offset of the first data row', async () => {
      expect(await readCsvHeader(chunked(file, 2))).toEqual({ columns: ['phone', 'name', 'note'], endOffset: 20 });
    });

    it.each([1, 3, 64 * 1024])('from any row endOffset yields exactly the rows after it (chunks of %i bytes)', async (chunkSize) => {
      const all = await readCsv(file, { chunkSize });
      expect(all.map((row) => row.kind)).toEqual(['valid', 'valid', 'invalid', 'valid', 'valid']);
      expect(all[all.length - 1].endOffset).toBe(file.length);
      const header = await readCsvHeader(chunked(file, chunkSize));
      const resumedAt = async (startOffset: number, startRow: number): Promise<AudienceReadItem[]> =>
        collect(readAudienceRows(chunked(file.subarray(startOffset), chunkSize), { format: 'csv', header, startOffset, startRow }));
      expect(await resumedAt(header.endOffset, 1)).toEqual(all);
      for (const [index, row] of all.entries()) expect(await resumedAt(row.endOffset, row.row + 1)).toEqual(all.slice(index + 1));
    });

    it('starts after the header when given only the header', async () => {
      const header = await readCsvHeader(chunked(file));
      const rows = await collect(readAudienceRows(chunked(file.subarray(header.endOffset)), { format: 'csv', header }));
      expect(rows).toEqual(await readCsv(file));
    });

    it('resumes a file reopened at a row endOffset', async () => {
      const directory = await mkdtemp(join(tmpdir(), 'audience-'));
      const path = join(directory, 'audience.csv');
      try {
        await writeFile(path, file);
        const all = await collect(readAudienceRows(createReadStream(path), { format: 'csv' }));
        const header = await readCsvHeader(createReadStream(path));
        const checkpoint = all[1];
        const resumed = readAudienceRows(createReadStream(path, { start: checkpoint.endOffset }), {
          format: 'csv',
          header,
          startOffset: checkpoint.endOffset,
          startRow: checkpoint.row + 1,
        });
        expect(await collect(resumed)).toEqual(all.slice(2));
      } finally {
        await rm(directory, { recursive: true });
      }
    });

    it('refuses to resume a CSV without its header', async () => {
      const error = await failureOf(() => collect(readAudienceRows(chunked('2\n'), { format: 'csv', startOffset: 8 })));
      expect(String(error)).toContain('needs its header');
    });
  });
});
