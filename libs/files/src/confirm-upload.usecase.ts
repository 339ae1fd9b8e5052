import { CatalogError } from '@cmsg/errors';
import type { BusinessScope, FileEntity } from '@cmsg/dal';
import { sniffedAsDeclared } from './content-sniffing';
import { isUploadModule } from './file-types';
import type { FilesContext } from './files-context';
import type { FileRecords, StorageAccounts } from './ports';

export interface ConfirmedFile {
  uuid: string;
  status: 'confirmed';
  mime_type: string;
  size: number;
  file_name: string;
}

/**
 * POST /files/confirm: the pending upload becomes a usable file once its content arrived whole,
 * has the declared size and sniffs as the declared type. Refusals keep it pending, so the client
 * may PUT the right content again while the upload has not expired. Its bytes stay counted on the
 * business; its place among the pending uploads is freed after the file is confirmed (a crash in
 * between keeps the place until the business's next cleanup finds the file confirmed).
 */
/** What confirming reads and writes. */
export type ConfirmUploadContext = Pick<FilesContext, 'now'> & { files: Pick<FileRecords, 'findById' | 'confirm'>; businesses: Pick<StorageAccounts, 'keepStorage'> };

export async function confirmUpload(context: ConfirmUploadContext, scope: BusinessScope, fileUuid: string): Promise<ConfirmedFile> {
  const now = context.now();
  const file = await context.files.findById(scope, fileUuid);
  if (!file || !isUploadModule(file.module) || file.status !== 'pending' || (file.pending_expires_at && file.pending_expires_at <= now)) {
    throw new CatalogError('FILE_NOT_FOUND', `No pending upload ${fileUuid} in this business.`);
  }
  assertUploadedAsDeclared(file);
  if (!(await context.files.confirm(scope, file, now))) {
    throw new CatalogError('FILE_NOT_FOUND', `Upload ${fileUuid} changed while it was being confirmed; it is no longer pending.`);
  }
  await context.businesses.keepStorage(scope, file._id);
  return { uuid: file._id, status: 'confirmed', mime_type: file.mime_type, size: file.size, file_name: file.file_name };
}

function assertUploadedAsDeclared(file: FileEntity): void {
  const upload = file.upload;
  switch (upload?.state ?? 'none') {
    case 'none':
      throw new CatalogError('FILE_NOT_UPLOADED', 'The file content never arrived; PUT it to the upload URL first.');
    case 'receiving':
      throw new CatalogError('FILE_NOT_UPLOADED', 'The file content is still arriving; confirm once the PUT has finished.');
    case 'partial':
      throw new CatalogError('FILE_NOT_UPLOADED', 'The upload broke off before the whole content arrived; PUT it again or request a new upload.');
    case 'complete':
      break;
  }
  if (upload.received_bytes === 0) throw new CatalogError('FILE_NOT_UPLOADED', 'The uploaded content is empty.');
  if (upload.received_bytes !== file.size) {
    throw new CatalogError('SIZE_MISMATCH', `The upload has ${upload.received_bytes} bytes; ${file.size} were declared.`);
  }
  if (!sniffedAsDeclared(upload.sniffed_mime_types, file.mime_type)) {
    const detected = upload.sniffed_mime_types[0] ?? 'an unrecognised type';
    throw new CatalogError('MIME_MISMATCH', `The content is ${detected}; ${file.mime_type} was declared.`);
  }
}
