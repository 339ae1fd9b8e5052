import { chunked, collect } from './audience-file.fixture';
import type { AudienceReadItem } from './audience-row';
import { readAudienceRows } from './read-audience-rows';

const readNdjson = (content: string | Buffer, options: { maxRows?: number; chunkSize?: number; startOffset?: number; startRow?: number } = {}) =>
  collect(readAudienceRows(chunked(content, options.chunkSize), { format: 'ndjson', ...options }));

const summary = (rows: AudienceReadItem[]) =>
  rows.map((row) => (row.kind === 'valid' ? [row.row, row.phone, row.columns] : row.kind === 'invalid' ? [row.row, row.reason] : [row.row, 'truncated']));

describe('readAudienceRows (NDJSON)', () => {
  it('reads one object per line: phone as a string or a number, other scalars as text, null as absent', async () => {
    const rows = await readNdjson(
      '{"phone":" +5511999990001 ","name":"Ana","vip":true,"score":4.5,"note":null}\r\n{"Phone":5511999990002,"code":"B2"}\n',
    );
    expect(summary(rows)).toEqual([
      [1, '+5511999990001', { name: 'Ana', vip: 'true', score: '4.5' }],
      [2, '5511999990002', { code: 'B2' }],
    ]);
  });

  it.each([
    ['{"phone":"1"', 'the row is not valid JSON'],
    ['["1"]', 'the row is not a JSON object'],
    ['"1"', 'the row is not a JSON object'],
    ['{"phone":"1","tags":["a"]}', '"tags" holds an object or a list'],
    ['{"phone":"1","address":{"city":"x"}}', '"address" holds an object or a list'],
    ['{"phone":true}', 'the phone must be a string or a number'],
    ['{"phone":"  "}', 'the phone is empty'],
    ['{"phone":null,"name":"x"}', 'the row has no phone'],
    ['{"name":"x"}', 'the row has no phone'],
    ['{"phone":"1","PHONE":"2"}', 'the row has more than one phone key'],
  ])('skips %s as invalid (%s) and reads on', async (line, reason) => {
    const rows = await readNdjson(`${line}\n{"phone":"9"}\n`);
    expect(summary(rows)).toEqual([
      [1, reason],
      [2, '9', {}],
    ]);
  });

  it('does not number blank lines and reads a last line without a break', async () => {
    const rows = await readNdjson('\n{"phone":"1"}\n   \n\n{"phone":"2"}');
    expect(summary(rows)).toEqual([
      [1, '1', {}],
      [2, '2', {}],
    ]);
  });

  it('refuses a line that is not UTF-8', async () => {
    const rows = await readNdjson(Buffer.concat([Buffer.from('{"phone":"1","n":"'), Buffer.from([0xc3, 0x28]), Buffer.from('"}\n')]));
    expect(summary(rows)).toEqual([[1, 'the row is not valid UTF-8']]);
  });

  it('drops a line over 1 MiB without reading it and goes on', async () => {
    const long = `{"phone":"1","note":"${'x'.repeat(1024 * 1024)}"}`;
    const rows = await readNdjson(`${long}\n{"phone":"2"}\n`, { chunkSize: 4096 });
    expect(summary(rows)).toEqual([
      [1, 'the row is longer than 1048576 bytes'],
      [2, '2', {}],
    ]);
    expect(rows[0].endOffset).toBe(long.length + 1);
  });

  it('stops after maxRows with a truncated item', async () => {
    const rows = await readNdjson('{"phone":"1"}\n{"phone":"2"}\n{"phone":"3"}\n', { maxRows: 2 });
    expect(rows[2]).toEqual({ kind: 'truncated', row: 3, endOffset: 28 });
  });

  it.each([1, 5, 64 * 1024])('resumes from any row endOffset with exactly the rows after it (chunks of %i bytes)', async (chunkSize) => {
    const file = Buffer.concat([
      Buffer.from([0xef, 0xbb, 0xbf]),
      Buffer.from('{"phone":"1","name":"José"}\r\n\n{"phone":"2","name":"😀"}\nnot json\n{"phone":3}'),
    ]);
    const all = await readNdjson(file, { chunkSize });
    expect(summary(all)).toEqual([
      [1, '1', { name: 'José' }],
      [2, '2', { name: '😀' }],
      [3, 'the row is not valid JSON'],
      [4, '3', {}],
    ]);
    expect(all[3].endOffset).toBe(file.length);
    for (const [index, row] of all.entries()) {
      const resumed = await readNdjson(file.subarray(row.endOffset), { chunkSize, startOffset: row.endOffset, startRow: row.row + 1 });
      expect(resumed).toEqual(all.slice(index + 1));
    }
  });
});
