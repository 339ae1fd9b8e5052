import { chunked } from './audience-file.fixture';
import { CsvRecordParser, type CsvLimits, type CsvRecord } from './csv-record-parser';
import { positionedChunks } from './positioned-chunks';

async function parse(content: string | Buffer, chunkSize: number, limits?: CsvLimits): Promise<CsvRecord[]> {
  const parser = new CsvRecordParser(limits);
  const records: CsvRecord[] = [];
  let end = 0;
  for await (const { bytes, offset } of positionedChunks(chunked(content, chunkSize), 0, Number.MAX_SAFE_INTEGER)) {
    records.push(...parser.push(bytes, offset));
    end = offset + bytes.length;
  }
  records.push(...parser.finish(end));
  return records;
}

/** Every chunking gives the same records: a field, a quote pair or a CRLF may be split anywhere. */
async function parseAllChunkings(content: string | Buffer, limits?: CsvLimits): Promise<CsvRecord[]> {
  const whole = await parse(content, 1 << 20, limits);
  for (const size of [1, 2, 3, 5, 7, 13]) expect(await parse(content, size, limits)).toEqual(whole);
  return whole;
}

const fields = (records: CsvRecord[]) => records.map((record) => ('fields' in record ? record.fields : record.problem));
const ends = (records: CsvRecord[]) => records.map((record) => record.endOffset);
/** The byte offset after each of `lines` written one after the other. */
const offsetsAfter = (...lines: string[]) => lines.map((_, index) => Buffer.byteLength(lines.slice(0, index + 1).join('')));

describe('CsvRecordParser', () => {
  it('reads plain records with LF, CRLF and a last line without a break', async () => {
    const records = await parseAllChunkings('a,b\r\nc,d\ne,f');
    expect(fields(records)).toEqual([['a', 'b'], ['c', 'd'], ['e', 'f']]);
    expect(ends(records)).toEqual([5, 9, 12]);
  });

  it('takes a lone CR as a line break', async () => {
    const records = await parseAllChunkings('a\rb\r');
    expect(fields(records)).toEqual([['a'], ['b']]);
    expect(ends(records)).toEqual([2, 4]);
  });

  it('reads quoted fields with commas, line breaks and doubled quotes inside', async () => {
    const lines = ['"a,1","line\r\nbreak","say ""hi""",""\n', '"x"\r\n'];
    const records = await parseAllChunkings(lines.join(''));
    expect(fields(records)).toEqual([['a,1', 'line\r\nbreak', 'say "hi"', ''], ['x']]);
    expect(ends(records)).toEqual(offsetsAfter(...lines));
  });

  it('keeps empty fields, including a trailing one at the end of the file', async () => {
    expect(fields(await parseAllChunkings(',a,\n,'))).toEqual([['', 'a', ''], ['', '']]);
  });

  it('skips a UTF-8 BOM at the start but counts its bytes', async () => {
    const records = await parseAllChunkings(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('phone\n1\n')]));
    expect(fields(records)).toEqual([['phone'], ['1']]);
    expect(ends(records)).toEqual([9, 11]);
  });

  it('counts offsets in bytes with multi-byte characters', async () => {
    // é and ë are 2 bytes, 😀 is 4.
    const records = await parseAllChunkings('José,"😀,x"\nZoë,b\n');
    expect(fields(records)).toEqual([['José', '😀,x'], ['Zoë', 'b']]);
    expect(ends(records)).toEqual([15, 22]);
  });

  it('marks blank lines, but not a line holding a quoted empty field', async () => {
    const records = await parseAllChunkings('\n  \n""\n');
    expect(records.map((record) => 'fields' in record && record.blank)).toEqual([true, true, false]);
  });

  it('reports malformed records and goes on with the next one', async () => {
    const records = await parseAllChunkings('a"b,c\n"x"y,z\nok,1\n"open\n');
    expect(fields(records)).toEqual([
      'a quote inside an unquoted field (quote the field and double the quote)',
      'text after a closing quote',
      ['ok', '1'],
      'a quoted field is not closed',
    ]);
    expect(ends(records)).toEqual([6, 13, 18, 24]);
  });

  it('refuses bytes that are not UTF-8', async () => {
    const records = await parseAllChunkings(Buffer.from([0x61, 0x2c, 0xff, 0x0a, 0x62, 0x0a]));
    expect(fields(records)).toEqual(['a field is not valid UTF-8', ['b']]);
  });

  describe('limits', () => {
    const limits = { maxFieldBytes: 8, maxLineBytes: 20 };

    it('drops a field over the limit up to the next line break', async () => {
      const records = await parseAllChunkings('123456789,a\nok,1\n12345678,b\n', limits);
      expect(fields(records)).toEqual(['a field is longer than 8 bytes', ['ok', '1'], ['12345678', 'b']]);
      expect(ends(records)).toEqual([12, 17, 28]);
    });

    it('drops a line over the limit up to the next line break', async () => {
      const records = await parseAllChunkings('1234,1234,1234,1234,1\nok\n', limits);
      expect(fields(records)).toEqual(['the row is longer than 20 bytes', ['ok']]);
      expect(ends(records)).toEqual([22, 25]);
    });

    it('ends an unclosed quote at the first line break past the limit instead of swallowing the file', async () => {
      const records = await parseAllChunkings('"runaway quote,\nx,1\nok\n', limits);
      expect(fields(records)).toEqual(['a field is longer than 8 bytes', ['x', '1'], ['ok']]);
    });
  });
});
