import type { Readable } from 'node:stream';
import { CatalogError } from '@cmsg/errors';
import type { BusinessScope, FileModule, FileStatus } from '@cmsg/dal';
import type { FilesContext } from './files-context';

/** What another module checks about a file it is given by uuid (a broadcast's audience file). */
export interface StoredFileFacts {
  uuid: string;
  module: FileModule;
  status: FileStatus;
  mime_type: string;
  size: number;
}

/** The file of this business with this uuid, whatever its module and status; null when there is none. */
export async function describeFile(context: Pick<FilesContext, 'files'>, scope: BusinessScope, fileUuid: string): Promise<StoredFileFacts | null> {
  const file = await context.files.findById(scope, fileUuid);
  return file && { uuid: file._id, module: file.module, status: file.status, mime_type: file.mime_type, size: file.size };
}

/**
 * The bytes of a confirmed file from byte `start` on, streamed from GridFS (which skips to the chunk
 * holding `start`): a broadcast freezing its audience file resumes at a row's offset without reading
 * what came before. FILE_NOT_FOUND when it is not a confirmed file of the business.
 */
export async function openConfirmedContent(context: FilesContext, scope: BusinessScope, fileUuid: string, start: number): Promise<Readable> {
  const file = await context.files.findById(scope, fileUuid);
  if (file?.status !== 'confirmed' || !file.content_id) throw new CatalogError('FILE_NOT_FOUND', `No confirmed file ${fileUuid} in this business.`);
  if (!Number.isSafeInteger(start) || start < 0 || start > file.size) throw new RangeError(`openConfirmedContent: start ${start} is outside the file's ${file.size} bytes`);
  return context.store.openRead(file.content_id, { start, end: file.size });
}
