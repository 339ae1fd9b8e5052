import type { Readable } from 'node:stream';
import { CatalogError } from '@cmsg/errors';
import type { BusinessScope, FileEntity } from '@cmsg/dal';
import type { FilesContext } from './files-context';
import { canTranscribe } from './transcription-rule';

/** A confirmed upload as a send needs it: the Cloud API downloads the media from `link`. */
export interface FileForSend {
  uuid: string;
  /** Signed, short-lived GET URL served by the gateway. */
  link: string;
  link_expires_at: string;
  mime_type: string;
  file_name: string;
  size: number;
  /** False: a send needs a supplied transcription (see assertTranscriptionSupplied). */
  can_transcribe: boolean;
}

type SignableFile = Pick<FileEntity, '_id' | 'business_id' | 'size'>;

/** A fresh signed download URL of a file; sends sign at send time, schedules again when they fire. */
export function signedDownloadUrl(context: FilesContext, file: SignableFile): { url: string; expiresAt: Date } {
  const expiresAt = new Date(context.now().getTime() + context.policy.downloadUrlTtlMs);
  return { url: context.signer.url({ purpose: 'download', businessId: file.business_id, fileUuid: file._id, size: file.size, expiresAt }), expiresAt };
}

/**
 * The confirmed upload a send names by file_uuid (module api_messages): FILE_NOT_FOUND when it is
 * missing, of another business or not confirmed (SPEC 4.1).
 */
export async function fileForSend(context: FilesContext, scope: BusinessScope, fileUuid: string): Promise<FileForSend> {
  const file = await context.files.findById(scope, fileUuid);
  if (file?.module !== 'api_messages' || file.status !== 'confirmed') throw new CatalogError('FILE_NOT_FOUND', `No confirmed file ${fileUuid} in this business.`);
  const { url, expiresAt } = signedDownloadUrl(context, file);
  return {
    uuid: file._id,
    link: url,
    link_expires_at: expiresAt.toISOString(),
    mime_type: file.mime_type,
    file_name: file.file_name,
    size: file.size,
    can_transcribe: canTranscribe(file),
  };
}

export interface FileDownload {
  mime_type: string;
  size: number;
  file_name: string;
  content: Readable;
}

/** GET of a signed download URL: the confirmed file's bytes, streamed from GridFS. */
export async function openDownload(context: FilesContext, scope: BusinessScope, fileUuid: string): Promise<FileDownload> {
  const file = await context.files.findById(scope, fileUuid);
  if (file?.status !== 'confirmed' || !file.content_id) throw new CatalogError('FILE_NOT_FOUND', `No confirmed file ${fileUuid} in this business.`);
  return { mime_type: file.mime_type, size: file.size, file_name: file.file_name, content: context.store.openRead(file.content_id) };
}
