import { CatalogError } from '@cmsg/errors';
import type { BusinessScope } from '@cmsg/dal';
import { type FileEntity, FileModel } from './file.model';
import type { FilesContext } from './files-context';

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
 * may PUT the right content again while the upload has not expired.
 */
export async function confirmUpload(context: FilesContext, scope: BusinessScope, fileUuid: string): Promise<ConfirmedFile> {
  const now = context.now();
  const file = await FileModel.findOne({ _id: fileUuid, business_id: scope.businessId, module: 'api_messages' }).lean<FileEntity>();
  if (!file || file.status !== 'pending' || (file.pending_expires_at && file.pending_expires_at <= now)) {
    throw new CatalogError('FILE_NOT_FOUND', `No pending upload ${fileUuid} in this business.`);
  }
  assertUploadedAsDeclared(file);
  const confirmed = await FileModel.updateOne(
    { _id: fileUuid, status: 'pending', 'upload.state': 'complete', 'upload.attempt_id': file.upload.attempt_id },
    { $set: { status: 'confirmed', content_id: file.upload.content_id, confirmed_at: now, pending_expires_at: null, updated_at: now } },
  );
  if (confirmed.modifiedCount !== 1) throw new CatalogError('FILE_NOT_FOUND', `Upload ${fileUuid} changed while it was being confirmed; it is no longer pending.`);
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
  if (!upload.sniffed_mime_types.includes(file.mime_type)) {
    const detected = upload.sniffed_mime_types[0] ?? 'an unrecognised type';
    throw new CatalogError('MIME_MISMATCH', `The content is ${detected}; ${file.mime_type} was declared.`);
  }
}
