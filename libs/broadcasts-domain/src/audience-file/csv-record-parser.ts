import { MAX_FIELD_BYTES, MAX_LINE_BYTES } from './audience-file-limits';
import { decodeUtf8 } from './strict-utf8';

/** One CSV record and the byte offset just after it (after its line break). */
export type CsvRecord = { endOffset: number; fields: string[]; blank: boolean } | { endOffset: number; problem: string };

export interface CsvLimits {
  maxFieldBytes: number;
  maxLineBytes: number;
}

const COMMA = 0x2c;
const QUOTE = 0x22;
const CR = 0x0d;
const LF = 0x0a;

const FIELD_START = 0;
const UNQUOTED = 1;
const QUOTED = 2;
/** A quote inside a quoted field: the field's end, or the first half of `""`. */
const QUOTE_IN_QUOTED = 3;
/** A CR outside quotes: the record ends, with the LF that may follow. */
const AFTER_CR = 4;
/** The record is invalid and no longer parsed: everything up to the next line break is dropped. */
const SKIP_LINE = 5;

/**
 * RFC 4180 records from a file's bytes pushed in order. It works on bytes rather than text: the
 * delimiters are ASCII, never part of a multi-byte UTF-8 character, so offsets are exact and a
 * character split between two chunks is decoded whole.
 *
 * A record over a limit is dropped up to the next line break, even inside quotes: an unclosed quote
 * then costs the rows within the field limit (64 KiB) instead of the rest of the file, and a record
 * never makes the parser hold much more than the line limit.
 */
export class CsvRecordParser {
  private state = FIELD_START;
  private fields: string[] = [];
  private pieces: Buffer[] = [];
  private inRun = false;
  /** Where the field's current run of bytes began in the chunk being read. */
  private runStart = 0;
  private fieldBytes = 0;
  private lineBytes = 0;
  private anyQuoted = false;
  private problem: string | null = null;
  private records: CsvRecord[] = [];

  constructor(private readonly limits: CsvLimits = { maxFieldBytes: MAX_FIELD_BYTES, maxLineBytes: MAX_LINE_BYTES }) {}

  push(bytes: Buffer, offset: number): CsvRecord[] {
    this.records = [];
    this.runStart = 0;
    for (let i = 0; i < bytes.length; i++) {
      const byte = bytes[i];
      if (this.state === AFTER_CR) {
        // A lone CR ends the record too; the byte after it then starts the next one.
        this.endRecord(byte === LF ? offset + i + 1 : offset + i);
        if (byte === LF) continue;
      }
      if (this.state === SKIP_LINE) {
        if (byte === LF) this.endRecord(offset + i + 1);
        else if (byte === CR) this.state = AFTER_CR;
        continue;
      }
      const endsLine = (byte === LF || byte === CR) && this.state !== QUOTED;
      if (!endsLine && ++this.lineBytes > this.limits.maxLineBytes) {
        this.skipLine(`the row is longer than ${this.limits.maxLineBytes} bytes`);
        continue;
      }
      this.step(bytes, i, offset);
    }
    // A copy: the field goes on in the next chunk, and the source may reuse or hold a large buffer.
    if (this.inRun && this.runStart < bytes.length && this.problem === null) this.pieces.push(Buffer.from(bytes.subarray(this.runStart)));
    return this.records;
  }

  /** The last record, when the file does not end with a line break. */
  finish(endOffset: number): CsvRecord[] {
    this.records = [];
    switch (this.state) {
      case FIELD_START:
        // Bytes read since the last record mean a field was left open by a trailing comma.
        if (this.lineBytes > 0) {
          this.endField();
          this.endRecord(endOffset);
        }
        break;
      case UNQUOTED:
      case QUOTE_IN_QUOTED:
        this.endField();
        this.endRecord(endOffset);
        break;
      case QUOTED:
        this.problem ??= 'a quoted field is not closed';
        this.endRecord(endOffset);
        break;
      default:
        this.endRecord(endOffset);
    }
    return this.records;
  }

  private step(bytes: Buffer, i: number, offset: number): void {
    const byte = bytes[i];
    switch (this.state) {
      case FIELD_START:
        if (byte === QUOTE) {
          this.anyQuoted = true;
          this.state = QUOTED;
          this.startRun(i + 1);
        } else if (byte === COMMA || byte === LF || byte === CR) {
          this.endFieldAt(byte, offset + i);
        } else {
          this.state = UNQUOTED;
          this.startRun(i);
          this.addFieldByte();
        }
        return;
      case UNQUOTED:
        if (byte === COMMA || byte === LF || byte === CR) {
          this.closeRun(bytes, i);
          this.endFieldAt(byte, offset + i);
        } else {
          if (byte === QUOTE) this.problem ??= 'a quote inside an unquoted field (quote the field and double the quote)';
          this.addFieldByte();
        }
        return;
      case QUOTED:
        if (byte === QUOTE) {
          this.closeRun(bytes, i);
          this.state = QUOTE_IN_QUOTED;
        } else {
          this.addFieldByte();
        }
        return;
      case QUOTE_IN_QUOTED:
        if (byte === QUOTE) {
          this.state = QUOTED;
          this.startRun(i);
          this.addFieldByte();
        } else if (byte === COMMA || byte === LF || byte === CR) {
          this.endFieldAt(byte, offset + i);
        } else {
          this.problem ??= 'text after a closing quote';
          this.state = UNQUOTED;
        }
        return;
    }
  }

  /** The field ends at a comma or a line break found at `position`. */
  private endFieldAt(byte: number, position: number): void {
    this.endField();
    if (byte === COMMA) this.state = FIELD_START;
    else if (byte === CR) this.state = AFTER_CR;
    else this.endRecord(position + 1);
  }

  private startRun(index: number): void {
    this.inRun = true;
    this.runStart = index;
  }

  private closeRun(bytes: Buffer, end: number): void {
    if (this.inRun && end > this.runStart && this.problem === null) this.pieces.push(bytes.subarray(this.runStart, end));
    this.inRun = false;
  }

  private addFieldByte(): void {
    if (++this.fieldBytes > this.limits.maxFieldBytes) this.skipLine(`a field is longer than ${this.limits.maxFieldBytes} bytes`);
  }

  private skipLine(problem: string): void {
    this.problem = problem;
    this.fields = [];
    this.pieces = [];
    this.inRun = false;
    this.state = SKIP_LINE;
  }

  private endField(): void {
    if (this.problem === null) {
      const text = decodeUtf8(this.pieces);
      if (text === null) this.problem = 'a field is not valid UTF-8';
      else this.fields.push(text);
    }
    this.pieces = [];
    this.inRun = false;
    this.fieldBytes = 0;
  }

  private endRecord(endOffset: number): void {
    if (this.problem !== null) {
      this.records.push({ endOffset, problem: this.problem });
    } else {
      const blank = !this.anyQuoted && this.fields.length === 1 && this.fields[0].trim() === '';
      this.records.push({ endOffset, fields: this.fields, blank });
    }
    this.state = FIELD_START;
    this.fields = [];
    this.pieces = [];
    this.inRun = false;
    this.fieldBytes = 0;
    this.lineBytes = 0;
    this.anyQuoted = false;
    this.problem = null;
  }
}
