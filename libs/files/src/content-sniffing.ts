/**
 * Content sniffing by magic numbers for the upload types of file-types.ts, written here rather than
 * taken from a package: the set is small and fixed. Only the first SNIFF_BYTES of a file are read.
 */
export const SNIFF_BYTES = 64 * 1024;

const OLE_SIGNATURE = Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]);
const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const ZIP_LOCAL_HEADER = Buffer.from([0x50, 0x4b, 0x03, 0x04]);

const OOXML_TYPES = {
  word: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  xl: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  ppt: 'application/vnd.openxmlformats-officedocument.presentationml.presentation',
} as const;
const LEGACY_OFFICE_TYPES = ['application/msword', 'application/vnd.ms-excel', 'application/vnd.ms-powerpoint'];

/**
 * What the first bytes of a file are. `candidates` lists every declared type the content is
 * compatible with: some containers cannot be told apart from their head alone (an OLE compound
 * file is a .doc, .xls or .ppt; an ISO media file is mp4 video or mp4 audio).
 */
export interface SniffResult {
  /** The most likely type, for messages; `undefined` when nothing matched. */
  detected: string | undefined;
  candidates: readonly string[];
}

export function sniffContent(head: Buffer): SniffResult {
  const candidates = candidatesOf(head);
  return { detected: candidates[0], candidates };
}

/**
 * Text formats that have no magic number of their own: content that sniffs as text may be any of
 * them (a CSV or NDJSON audience file is checked row by row when it is read, not here).
 */
const TEXT_FORMATS: readonly string[] = ['text/csv', 'application/x-ndjson'];

/** Whether content sniffed as `candidates` (sniffContent's) can be what the upload declared. */
export function sniffedAsDeclared(candidates: readonly string[], declaredMimeType: string): boolean {
  if (candidates.includes(declaredMimeType)) return true;
  return TEXT_FORMATS.includes(declaredMimeType) && candidates.includes('text/plain');
}

/** Whether a file whose first bytes are `head` can be what the upload declared. */
export function contentMatchesDeclaredType(head: Buffer, declaredMimeType: string): boolean {
  return sniffedAsDeclared(sniffContent(head).candidates, declaredMimeType);
}

function candidatesOf(head: Buffer): string[] {
  if (head.length >= 3 && head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff) return ['image/jpeg'];
  if (startsWith(head, PNG_SIGNATURE)) return ['image/png'];
  if (ascii(head, 0, 4) === 'RIFF' && ascii(head, 8, 12) === 'WEBP') return ['image/webp'];
  if (ascii(head, 4, 8) === 'ftyp') return isoMediaTypes(ascii(head, 8, 12));
  if (ascii(head, 0, 4) === 'OggS' && head[4] === 0x00) return ['audio/ogg'];
  if (ascii(head, 0, 6) === '#!AMR\n' || ascii(head, 0, 9) === '#!AMR-WB\n') return ['audio/amr'];
  if (ascii(head, 0, 4) === 'ADIF' || isAdtsFrame(head)) return ['audio/aac'];
  if (isId3Tag(head) || isMpegAudioFrame(head)) return ['audio/mpeg'];
  if (head.subarray(0, 1024).includes('%PDF-')) return ['application/pdf'];
  if (startsWith(head, OLE_SIGNATURE)) return [...LEGACY_OFFICE_TYPES];
  if (startsWith(head, ZIP_LOCAL_HEADER)) return ooxmlTypes(head);
  if (isPlainText(head)) return ['text/plain'];
  return [];
}

/** ISO base media (`ftyp` box): 3GPP brands are 3gpp video, the rest mp4 video or audio. */
function isoMediaTypes(brand: string): string[] {
  if (brand.startsWith('3g')) return ['video/3gpp'];
  if (brand === 'M4A ' || brand === 'M4B ') return ['audio/mp4'];
  return ['video/mp4', 'audio/mp4'];
}

/**
 * An OOXML package is a zip whose entries live under word/, xl/ or ppt/. Office writes those
 * names within the first few kilobytes; a zip without any of them in the head is not accepted
 * as an office document.
 */
function ooxmlTypes(head: Buffer): string[] {
  const found = (Object.keys(OOXML_TYPES) as (keyof typeof OOXML_TYPES)[]).filter((folder) => head.includes(`${folder}/`));
  if (found.length === 0) return [];
  // [Content_Types].xml may name another part type; the first folder in the archive decides.
  found.sort((a, b) => head.indexOf(`${a}/`) - head.indexOf(`${b}/`));
  return found.map((folder) => OOXML_TYPES[folder]);
}

/** An ID3v2 tag in front of MPEG audio: `ID3`, major version 2 to 4, revision 0. */
function isId3Tag(head: Buffer): boolean {
  return ascii(head, 0, 3) === 'ID3' && head[3]! >= 2 && head[3]! <= 4 && head[4] === 0x00;
}

/** ADTS: 12-bit sync word, layer bits 00. */
function isAdtsFrame(head: Buffer): boolean {
  return head.length >= 2 && head[0] === 0xff && (head[1]! & 0xf6) === 0xf0;
}

/** MPEG audio frame: 11-bit sync word, a version other than reserved, layer I to III. */
function isMpegAudioFrame(head: Buffer): boolean {
  if (head.length < 3 || head[0] !== 0xff || (head[1]! & 0xe0) !== 0xe0) return false;
  const version = (head[1]! >> 3) & 0x03;
  const layer = (head[1]! >> 1) & 0x03;
  const bitrate = head[2]! >> 4;
  return version !== 0x01 && layer !== 0x00 && bitrate !== 0x0f;
}

/**
 * Text: valid UTF-8 (a sequence cut by the end of the sample is fine) without NUL bytes or
 * control characters other than tab, line breaks, form feed and escape.
 */
function isPlainText(head: Buffer): boolean {
  if (head.length === 0) return false;
  let index = head[0] === 0xef && head[1] === 0xbb && head[2] === 0xbf ? 3 : 0;
  while (index < head.length) {
    const byte = head[index]!;
    if (byte < 0x80) {
      if (byte < 0x20 && ![0x09, 0x0a, 0x0c, 0x0d, 0x1b].includes(byte)) return false;
      if (byte === 0x7f) return false;
      index += 1;
      continue;
    }
    const length = byte >= 0xf0 && byte <= 0xf4 ? 4 : byte >= 0xe0 ? 3 : byte >= 0xc2 && byte <= 0xdf ? 2 : 0;
    if (length === 0 || byte > 0xf4) return false;
    for (let offset = 1; offset < length; offset += 1) {
      if (index + offset >= head.length) return true;
      if ((head[index + offset]! & 0xc0) !== 0x80) return false;
    }
    index += length;
  }
  return true;
}

function startsWith(head: Buffer, signature: Buffer): boolean {
  return head.length >= signature.length && head.subarray(0, signature.length).equals(signature);
}

function ascii(head: Buffer, start: number, end: number): string {
  return head.length >= end ? head.toString('latin1', start, end) : '';
}
