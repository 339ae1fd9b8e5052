import { runInNewContext } from 'node:vm';
import { setFlagsFromString } from 'node:v8';
import type { AudienceByteSource, CsvHeader } from './audience-row';
import { readCsvHeader } from './csv-header';
import { readAudienceRows } from './read-audience-rows';

// A full collection before each heap reading, so the figure is what the reader keeps, not garbage
// awaiting collection. Streaming keeps about 1 MB; holding the 200,000 rows would keep about 53 MB.
setFlagsFromString('--expose-gc');
const collectGarbage = runInNewContext('gc') as () => void;

const ROWS = 200_000;
const HEADER = 'phone,first_name,code,note\n';
const NAMES = ['José', 'Zoë 😀', 'Ana', '"Silva, João"'];
const NOTE = 'a note long enough to make the file about 15 MB';

const phoneOf = (row: number) => `5511${String(row).padStart(9, '0')}`;
const lineOf = (row: number) => `${phoneOf(row)},${NAMES[row % NAMES.length]},C${row},${NOTE}\n`;

/** The file from `startOffset`, built while it is read: never whole in memory. */
async function* generatedCsv(startOffset = 0): AudienceByteSource {
  let position = 0;
  let pending = HEADER;
  for (let row = 1; row <= ROWS + 1; row++) {
    if (row <= ROWS) pending += lineOf(row);
    if (pending.length < 64 * 1024 && row <= ROWS) continue;
    const bytes = Buffer.from(pending);
    pending = '';
    if (position + bytes.length > startOffset) yield bytes.subarray(Math.max(0, startOffset - position));
    position += bytes.length;
  }
}

describe('readAudienceRows on a 200,000-row CSV', () => {
  let header: CsvHeader;
  // Row number -> its endOffset, filled by the full read.
  const checkpoints = new Map<number, number>([
    [150_001, 0],
    [199_999, 0],
    [ROWS, 0],
  ]);

  beforeAll(async () => {
    header = await readCsvHeader(generatedCsv());
  });

  it('streams every row with exact offsets while the heap stays flat', async () => {
    collectGarbage();
    const baseline = process.memoryUsage().heapUsed;
    let maxGrowth = 0;
    let expectedEnd = Buffer.byteLength(HEADER);
    let count = 0;
    for await (const item of readAudienceRows(generatedCsv(), { format: 'csv' })) {
      count += 1;
      expectedEnd += Buffer.byteLength(lineOf(count));
      if (item.kind !== 'valid' || item.row !== count || item.phone !== phoneOf(count) || item.endOffset !== expectedEnd) {
        throw new Error(`row ${count}: ${JSON.stringify(item)}, expected end ${expectedEnd}`);
      }
      if (checkpoints.has(item.row)) checkpoints.set(item.row, item.endOffset);
      if (count % 20_000 === 0) {
        collectGarbage();
        maxGrowth = Math.max(maxGrowth, process.memoryUsage().heapUsed - baseline);
      }
    }
    expect(count).toBe(ROWS);
    expect(expectedEnd).toBeGreaterThan(14 * 1024 * 1024);
    expect(maxGrowth).toBeLessThan(30 * 1024 * 1024);
  }, 120_000);

  it('resumes from a row endOffset with exactly the rows after it', async () => {
    for (const [checkpoint, endOffset] of checkpoints) {
      let next = checkpoint + 1;
      for await (const item of readAudienceRows(generatedCsv(endOffset), { format: 'csv', header, startOffset: endOffset, startRow: next })) {
        if (item.kind !== 'valid' || item.row !== next || item.phone !== phoneOf(next)) throw new Error(`after ${checkpoint}: ${JSON.stringify(item)}`);
        next += 1;
      }
      expect(next - 1).toBe(ROWS);
    }
  }, 120_000);
});
