import { contentMatchesDeclaredType, sniffContent, sniffedAsDeclared } from './content-sniffing';

const bytes = (...values: number[]) => Buffer.from(values);
const ascii = (text: string) => Buffer.from(text, 'latin1');
const isoMedia = (brand: string) => Buffer.concat([bytes(0, 0, 0, 0x20), ascii('ftyp'), ascii(brand), bytes(0, 0, 0, 0)]);
const zipWith = (...entryNames: string[]) =>
  Buffer.concat(entryNames.map((name) => Buffer.concat([bytes(0x50, 0x4b, 0x03, 0x04), Buffer.alloc(26), ascii(name), Buffer.alloc(40, 0x11)])));

describe('sniffContent', () => {
  it.each([
    ['image/jpeg', bytes(0xff, 0xd8, 0xff, 0xe0, 0, 0x10)],
    ['image/png', bytes(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0)],
    ['image/webp', Buffer.concat([ascii('RIFF'), bytes(1, 2, 3, 4), ascii('WEBPVP8 ')])],
    ['video/3gpp', isoMedia('3gp5')],
    ['audio/mp4', isoMedia('M4A ')],
    ['audio/ogg', Buffer.concat([ascii('OggS'), bytes(0, 2)])],
    ['audio/amr', ascii('#!AMR\n\x3c')],
    ['audio/amr', ascii('#!AMR-WB\n')],
    ['audio/aac', bytes(0xff, 0xf1, 0x50, 0x80)],
    ['audio/mpeg', Buffer.concat([ascii('ID3'), bytes(4, 0, 0)])],
    ['audio/mpeg', bytes(0xff, 0xfb, 0x90, 0x64)],
    ['application/pdf', ascii('%PDF-1.7\n%\xe2\xe3')],
    ['application/vnd.openxmlformats-officedocument.wordprocessingml.document', zipWith('[Content_Types].xml', '_rels/.rels', 'word/document.xml')],
    ['application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', zipWith('[Content_Types].xml', 'xl/workbook.xml')],
    ['application/vnd.openxmlformats-officedocument.presentationml.presentation', zipWith('ppt/presentation.xml')],
    ['text/plain', Buffer.from('Hola, ¿qué tal?\r\n\tCafé ☕\n')],
  ])('detects %s', (type, head) => {
    expect(sniffContent(head).detected).toBe(type);
    expect(contentMatchesDeclaredType(head, type)).toBe(true);
  });

  it('takes an ISO media file with a generic brand as mp4 video or audio', () => {
    expect(sniffContent(isoMedia('isom')).candidates).toEqual(['video/mp4', 'audio/mp4']);
    expect(contentMatchesDeclaredType(isoMedia('mp42'), 'audio/mp4')).toBe(true);
    expect(contentMatchesDeclaredType(isoMedia('mp42'), 'video/3gpp')).toBe(false);
  });

  it('accepts an OLE compound file as any legacy office type, and nothing else', () => {
    const ole = bytes(0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1, 0, 0);
    for (const type of ['application/msword', 'application/vnd.ms-excel', 'application/vnd.ms-powerpoint']) expect(contentMatchesDeclaredType(ole, type)).toBe(true);
    expect(contentMatchesDeclaredType(ole, 'application/pdf')).toBe(false);
  });

  it('does not take a zip without office parts for an office document', () => {
    expect(sniffContent(zipWith('photos/a.jpg')).candidates).toEqual([]);
  });

  it('does not take binary data, control characters or broken UTF-8 for text', () => {
    expect(contentMatchesDeclaredType(bytes(0x48, 0x00, 0x49), 'text/plain')).toBe(false);
    expect(contentMatchesDeclaredType(bytes(0x48, 0x07, 0x49), 'text/plain')).toBe(false);
    expect(contentMatchesDeclaredType(bytes(0x48, 0xc3, 0x28), 'text/plain')).toBe(false);
    expect(sniffContent(Buffer.alloc(0)).candidates).toEqual([]);
  });

  it('accepts a UTF-8 sequence cut by the end of the sample', () => {
    const text = Buffer.from('añ');
    expect(contentMatchesDeclaredType(text.subarray(0, text.length - 1), 'text/plain')).toBe(true);
  });

  it('tells a PNG declared as JPEG apart (the MIME_MISMATCH case)', () => {
    const png = bytes(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a);
    expect(contentMatchesDeclaredType(png, 'image/jpeg')).toBe(false);
  });

  it('does not mistake text starting like a media signature for media', () => {
    expect(sniffContent(ascii('ID3 tags are metadata\n')).detected).toBe('text/plain');
    expect(sniffContent(ascii('OggS is a container\n')).detected).toBe('text/plain');
  });
});

describe('text formats of broadcast audience files (sniffedAsDeclared)', () => {
  const csv = Buffer.concat([bytes(0xef, 0xbb, 0xbf), Buffer.from('phone,name,code\r\n+5511999990001,"Silva, João",A1\r\n')]);
  const ndjson = Buffer.from('{"phone":"+5511999990001","code":"A1"}\n{"phone":5511999990002}\n');

  it.each([
    ['text/csv', csv],
    ['application/x-ndjson', ndjson],
  ])('accepts text content declared as %s', (type, head) => {
    expect(sniffContent(head).candidates).toEqual(['text/plain']);
    expect(contentMatchesDeclaredType(head, type)).toBe(true);
    expect(sniffedAsDeclared(sniffContent(head).candidates, type)).toBe(true);
  });

  it.each(['text/csv', 'application/x-ndjson'])('refuses binary content declared as %s', (type) => {
    expect(contentMatchesDeclaredType(bytes(0xff, 0xd8, 0xff, 0xe0, 0, 0x10), type)).toBe(false);
    expect(contentMatchesDeclaredType(Buffer.from('phone\n1\0\n'), type)).toBe(false);
    expect(sniffedAsDeclared([], type)).toBe(false);
  });

  it('does not widen what text/plain or the media types accept', () => {
    expect(sniffedAsDeclared(['text/csv'], 'text/plain')).toBe(false);
    expect(sniffedAsDeclared(['text/plain'], 'application/pdf')).toBe(false);
  });
});
