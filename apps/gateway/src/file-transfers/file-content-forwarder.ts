import { Readable, Transform, type Writable, pipeline } from 'node:stream';
import type { ServiceError } from '@grpc/grpc-js';
import { CatalogError, isCatalogError } from '@cmsg/errors';
import { type DownloadContentResponse, type DownloadContentStart, type FilesServiceClient, type ServiceClient, catalogErrorFromServiceError } from '@cmsg/proto';

/** A 100 MB upload from a slow client still fits; the HTTP server's request timeout applies first. */
const UPLOAD_DEADLINE_MS = 15 * 60_000;
const DOWNLOAD_DEADLINE_MS = 15 * 60_000;

export interface ForwardedDownload {
  start: DownloadContentStart;
  /** The content's bytes; destroying it cancels the call. */
  content: Readable;
}

/**
 * Streams file content between HTTP and the files service (FilesService.UploadContent and
 * DownloadContent) without holding a file in memory: each side waits for the other (stream
 * back-pressure on the HTTP request, the gRPC call and the HTTP response).
 */
export class FileContentForwarder {
  constructor(private readonly files: ServiceClient<FilesServiceClient>) {}

  /** Sends `body` as the content of the upload the token grants; resolves once it is stored. */
  upload(token: string, body: Readable): Promise<{ receivedBytes: number }> {
    return new Promise((resolve, reject) => {
      const call = this.files.raw.uploadContent(this.files.callMetadata(), this.files.callOptions(UPLOAD_DEADLINE_MS), (error, response) => {
        if (error) reject(catalogErrorFromServiceError(error));
        else resolve({ receivedBytes: response.received_bytes });
      });
      call.write({ start: { token } });
      let forwarded = 0;
      const toMessages = new Transform({
        readableObjectMode: true,
        transform(chunk: Buffer, _encoding, callback) {
          forwarded += chunk.length;
          callback(null, { chunk });
        },
        // Only a body that ended normally is marked complete.
        flush(callback) {
          callback(null, { end: { total_bytes: forwarded } });
        },
      });
      // grpc-js types its client stream as an object-mode writable of messages, which it is.
      pipeline(body, toMessages, call as unknown as Writable, (error) => {
        if (!error) return;
        // The HTTP body broke off (client gone, socket error): the service discards what arrived.
        call.cancel();
        reject(isCatalogError(error) ? error : new CatalogError('FILE_NOT_UPLOADED', 'The upload body broke off before it was complete.', { cause: error }));
      });
    });
  }

  /** The file a download token grants: resolves with its description once the service found it. */
  async download(token: string): Promise<ForwardedDownload> {
    const call = this.files.raw.downloadContent({ token }, this.files.callMetadata(), this.files.callOptions(DOWNLOAD_DEADLINE_MS));
    const messages = call[Symbol.asyncIterator]() as AsyncIterator<DownloadContentResponse>;
    let first: IteratorResult<DownloadContentResponse>;
    try {
      first = await messages.next();
    } catch (error) {
      throw toCatalog(error);
    }
    if (first.done || !first.value.start) throw new CatalogError('UNKNOWN_ERROR', 'The files service answered a download without its description.');
    async function* chunks(): AsyncGenerator<Buffer> {
      try {
        for (;;) {
          const next = await messages.next();
          if (next.done) return;
          if (next.value.chunk) yield next.value.chunk;
        }
      } finally {
        call.cancel();
      }
    }
    return { start: first.value.start, content: Readable.from(chunks(), { objectMode: false }) };
  }
}

function toCatalog(error: unknown): CatalogError {
  if (isCatalogError(error)) return error;
  if (typeof (error as ServiceError | undefined)?.code === 'number') return catalogErrorFromServiceError(error as ServiceError);
  return new CatalogError('UNKNOWN_ERROR', undefined, { cause: error });
}
