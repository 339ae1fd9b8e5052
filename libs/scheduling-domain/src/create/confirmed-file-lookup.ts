import type { FileRepository } from '@cmsg/dal';
import type { ConfirmedFileLookup } from '../ports';

/**
 * Uploads live in the `files` collection of the files module (/files/request-upload and
 * /files/confirm): a file missing, unconfirmed or of another module is FILE_NOT_FOUND (SPEC 7).
 */
export function confirmedUploadLookup(files: Pick<FileRepository, 'isConfirmedIn'>): ConfirmedFileLookup {
  return { isConfirmed: (scope, fileUuid) => files.isConfirmedIn(scope, fileUuid, 'api_messages') };
}
