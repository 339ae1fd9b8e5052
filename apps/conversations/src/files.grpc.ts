import type { ServerReadableStream, ServerWritableStream, handleClientStreamingCall, handleServerStreamingCall } from '@grpc/grpc-js';
import { CatalogError, isCatalogError, toCatalogError } from '@cmsg/errors';
import { businessScope } from '@cmsg/dal';
import { type Files, UPLOAD_FILE_MODULES, isUploadModule } from '@cmsg/files';
import { type Logger, runWithRequestContext } from '@cmsg/platform';
import { adaptUnaryService, requestContextOf } from '@cmsg/platform/grpc';
import {
  type Caller,
  catalogErrorStatus,
  type DownloadContentRequest,
  type DownloadContentResponse,
  type FilesServiceServer,
  type UploadContentRequest,
  type UploadContentResponse,
} from '@cmsg/proto';

export interface FilesHandlerDependencies {
  files: Files;
  logger: Logger;
}

/** FilesService: unary calls through the shared adapter, the two content streams by hand. */
export function filesHandlers({ files, logger }: FilesHandlerDependencies): FilesServiceServer {
  const unary = adaptUnaryService<Pick<FilesServiceServer, 'requestUpload' | 'confirmUpload'>>(
    {
      requestUpload: async (request) => {
        const fileModule = request.module;
        if (!isUploadModule(fileModule)) throw new CatalogError('INVALID_REQUEST', `Invalid request: module must be one of ${UPLOAD_FILE_MODULES.join(', ')}.`);
        const requested = await files.requestUpload(scopeOf(request.caller), {
          module: fileModule,
          fileName: request.file_name,
          mimeType: request.mime_type,
          size: request.size,
        });
        return { file_uuid: requested.file.uuid, status: requested.file.status, upload: requested.upload };
      },
      confirmUpload: async (request) => files.confirmUpload(scopeOf(request.caller), request.file_uuid),
    },
    logger,
  );
  return { ...unary, uploadContent: uploadContentHandler(files, logger), downloadContent: downloadContentHandler(files, logger) };
}

function scopeOf(caller: Caller | undefined) {
  if (!caller?.business_id) throw new CatalogError('INVALID_REQUEST', 'caller.business_id is required.');
  return businessScope(caller.business_id);
}

/** One `start` with the signed URL's token, the body's chunks into GridFS, then `end`. */
function uploadContentHandler(files: Files, logger: Logger): handleClientStreamingCall<UploadContentRequest, UploadContentResponse> {
  return (call, callback) => {
    // A cancelled call (the HTTP client went away) stops the stream early, so the upload is discarded.
    // Destroyed without an error: nothing may be left to listen for one.
    call.on('cancelled', () => call.destroy());
    runWithRequestContext(requestContextOf(call), () => {
      receive(files, call)
        .then((received) => callback(null, { received_bytes: received.receivedBytes }))
        .catch((error: unknown) => {
          // Cancelled: the stream broke off (premature close); nobody waits for an answer.
          if (call.cancelled) return;
          if (!isCatalogError(error)) logger.error({ err: error, method: 'uploadContent' }, 'unexpected error in gRPC handler');
          callback(catalogErrorStatus(toCatalogError(error)));
        });
    });
  };
}

async function receive(files: Files, call: ServerReadableStream<UploadContentRequest, UploadContentResponse>): Promise<{ receivedBytes: number }> {
  const messages = call[Symbol.asyncIterator]() as AsyncIterator<UploadContentRequest>;
  const first = await messages.next();
  if (first.done || !first.value.start) throw new CatalogError('INVALID_REQUEST', 'An upload stream starts with the upload token.');
  // Only an explicit `end` completes an upload: a stream that just stops (cancelled, broken) does not.
  async function* chunks(): AsyncGenerator<Buffer> {
    let forwarded = 0;
    for (;;) {
      const next = await messages.next();
      if (next.done || call.cancelled) throw new CatalogError('FILE_NOT_UPLOADED', 'The upload broke off before the whole content arrived.');
      if (next.value.end) {
        if (next.value.end.total_bytes !== forwarded) throw new CatalogError('FILE_NOT_UPLOADED', 'The upload lost content on its way; PUT it again.');
        return;
      }
      if (next.value.chunk && next.value.chunk.length > 0) {
        forwarded += next.value.chunk.length;
        yield next.value.chunk;
      }
    }
  }
  return files.receiveUploadByToken(first.value.start.token, chunks());
}

/** One `start` (type, size, name), then the content in chunks, at the pace the caller reads them. */
function downloadContentHandler(files: Files, logger: Logger): handleServerStreamingCall<DownloadContentRequest, DownloadContentResponse> {
  return (call) => {
    runWithRequestContext(requestContextOf(call), () => {
      serve(files, call).catch((error: unknown) => {
        if (call.cancelled) return;
        if (!isCatalogError(error)) logger.error({ err: error, method: 'downloadContent' }, 'unexpected error in gRPC handler');
        // grpc-js turns an 'error' on a server stream into the call's status.
        call.emit('error', catalogErrorStatus(toCatalogError(error)));
      });
    });
  };
}

async function serve(files: Files, call: ServerWritableStream<DownloadContentRequest, DownloadContentResponse>): Promise<void> {
  const download = await files.openDownloadByToken(call.request.token);
  call.on('cancelled', () => download.content.destroy());
  call.write({ start: { mime_type: download.mime_type, size: download.size, file_name: download.file_name } });
  for await (const chunk of download.content as AsyncIterable<Buffer>) {
    if (call.cancelled) return;
    if (!call.write({ chunk })) await new Promise((resolve) => call.once('drain', resolve));
  }
  call.end();
}
