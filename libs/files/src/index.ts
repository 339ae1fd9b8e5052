export { Files } from './files';
export type { FilesConfig } from './files';
export { DEFAULT_FILE_POLICY } from './files-context';
export type { FilePolicy, FilesContext } from './files-context';
export type { FileContents, FileRecords, FilesPorts, StorageAccounts } from './ports';
export { FileUrlSigner, UPLOAD_PATH_PREFIX, DOWNLOAD_PATH_PREFIX } from './file-url-signing';
export type { FileGrant, FileUrlPurpose } from './file-url-signing';
export {
  ALLOWED_MIME_TYPES,
  AUDIENCE_FILE_CATEGORY,
  AUDIENCE_FILE_MIME_TYPES,
  AUDIENCE_FILE_SIZE_CAP,
  FILE_SIZE_CAPS,
  UPLOAD_FILE_MODULES,
  categoryOf,
  checkDeclaredFile,
  isUploadModule,
  normalizeMimeType,
  defaultFileName,
} from './file-types';
export type { FileCategory, UploadFileModule } from './file-types';
export { sniffContent, sniffedAsDeclared, contentMatchesDeclaredType, SNIFF_BYTES } from './content-sniffing';
export type { SniffResult } from './content-sniffing';
export {
  MAX_TRANSCRIBABLE_BYTES,
  TRANSCRIBABLE_MIME_TYPES,
  transcriptionKindOf,
  canTranscribe,
  assertTranscriptionSupplied,
} from './transcription-rule';
export type { MediaFacts, TranscriptionKind, TranscriptionSlot } from './transcription-rule';
export { MAX_INBOUND_MEDIA_BYTES } from './store-inbound-media.usecase';
export type { InboundMediaInput } from './store-inbound-media.usecase';
export type { RequestUploadCommand, RequestedUpload } from './request-upload.usecase';
export type { ConfirmedFile } from './confirm-upload.usecase';
export type { FileForSend, FileDownload } from './file-downloads';
export type { CleanupResult } from './expired-uploads';
export type { StoredFileFacts } from './stored-files';
