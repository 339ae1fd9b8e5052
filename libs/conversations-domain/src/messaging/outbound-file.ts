import type { BusinessScope } from '@cmsg/dal';
import type { FileForSend } from '@cmsg/files';

/**
 * Confirmed uploads for sends (Files of @cmsg/files in production): a fresh signed link the
 * provider downloads the media from; FILE_NOT_FOUND when the file is missing, of another business
 * or not confirmed.
 */
export interface OutboundFiles {
  fileForSend(scope: BusinessScope, fileUuid: string): Promise<FileForSend>;
}
