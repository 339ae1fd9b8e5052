import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import mongoose from 'mongoose';
import type { ContentId } from '../file/file.entity';

/** The GridFS bucket of every file's bytes (`file_contents.files`, `file_contents.chunks`). */
export const CONTENT_BUCKET = 'file_contents';

export interface StoredContent {
  contentId: ContentId;
  size: number;
  sha256: string;
  /** The first `headBytes` bytes, for content sniffing. */
  head: Buffer;
}

export interface WriteContentOptions {
  filename: string;
  metadata: Record<string, unknown>;
  /** More bytes than this: the content is discarded and `tooLong()` is thrown. */
  maxBytes: number;
  tooLong: (maxBytes: number) => Error;
  /** How many of the first bytes to keep aside (StoredContent.head). */
  headBytes: number;
}

/**
 * File bytes in GridFS. Writes stream: each chunk is handed to GridFS and the next is read only
 * once it was taken, so at most about one GridFS chunk (255 KiB) per write sits in memory.
 */
export class FileContentStore {
  /** Consumes `source` into a new GridFS file; on any failure nothing of it stays stored. */
  async write(source: AsyncIterable<Buffer>, options: WriteContentOptions): Promise<StoredContent> {
    const upload = this.bucket().openUploadStream(options.filename, { metadata: options.metadata });
    const hash = createHash('sha256');
    const headParts: Buffer[] = [];
    let kept = 0;
    let received = 0;
    try {
      for await (const chunk of source) {
        received += chunk.length;
        if (received > options.maxBytes) throw options.tooLong(options.maxBytes);
        hash.update(chunk);
        if (kept < options.headBytes) {
          const part = chunk.subarray(0, options.headBytes - kept);
          headParts.push(Buffer.from(part));
          kept += part.length;
        }
        await new Promise<void>((resolve, reject) => upload.write(chunk, (error) => (error ? reject(error) : resolve())));
      }
      await new Promise<void>((resolve, reject) => upload.end((error?: Error | null) => (error ? reject(error) : resolve())));
    } catch (error) {
      await upload.abort().catch(() => undefined);
      throw error;
    }
    return { contentId: upload.id, size: received, sha256: hash.digest('hex'), head: Buffer.concat(headParts) };
  }

  /**
   * The stored bytes as a stream; with a range, bytes `start` to `end` (exclusive, at most the
   * content's length). Both ends are given: the driver takes a `start` without an `end` for a range
   * ending at 0.
   */
  openRead(contentId: ContentId, range?: { start: number; end: number }): Readable {
    if (range && range.start >= range.end) return Readable.from([]);
    return this.bucket().openDownloadStream(contentId, range && range.start > 0 ? { start: range.start, end: range.end } : undefined);
  }

  /** Reads at most `maxBytes` of the content into memory (media for the AI, at most 20 MB). */
  async readAll(contentId: ContentId, maxBytes: number): Promise<Buffer> {
    const parts: Buffer[] = [];
    let size = 0;
    for await (const chunk of this.openRead(contentId) as AsyncIterable<Buffer>) {
      parts.push(chunk);
      size += chunk.length;
      // Leaving the loop destroys the download stream.
      if (size >= maxBytes) break;
    }
    return Buffer.concat(parts, size).subarray(0, maxBytes);
  }

  /** Removes the content; content already gone is fine (sweeps and retries repeat deletions). */
  async delete(contentId: ContentId | null | undefined): Promise<void> {
    if (!contentId) return;
    await this.bucket()
      .delete(contentId)
      .catch((error: unknown) => {
        if (!/File not found/i.test(String((error as Error)?.message))) throw error;
      });
  }

  private bucket(): mongoose.mongo.GridFSBucket {
    const db = mongoose.connection.db;
    if (!db) throw new Error('FileContentStore: MongoDB is not connected');
    return new mongoose.mongo.GridFSBucket(db, { bucketName: CONTENT_BUCKET });
  }
}
