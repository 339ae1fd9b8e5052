import type { FileUrlSigner } from './file-url-signing';
import type { FileContents, FileRecords, StorageAccounts } from './ports';

/** The numbers SPEC 8 leaves open ("numeric storage quota and the cap on unconfirmed uploads: not shown"). */
export interface FilePolicy {
  /** How long an upload URL accepts a PUT. */
  uploadUrlTtlMs: number;
  /** How long an unconfirmed upload is kept (and counts against the quota) before the sweeper removes it. */
  pendingTtlMs: number;
  /** Unconfirmed, unexpired uploads a business may hold at once (TOO_MANY_PENDING_UPLOADS beyond). */
  maxPendingUploads: number;
  /** Lifetime of a signed download URL (the chat platform fetches a sent media through it). */
  downloadUrlTtlMs: number;
  /** A business stored before storage_quota_bytes existed gets this quota. */
  defaultStorageQuotaBytes: number;
}

export const DEFAULT_FILE_POLICY: FilePolicy = {
  uploadUrlTtlMs: 15 * 60_000,
  pendingTtlMs: 60 * 60_000,
  maxPendingUploads: 20,
  downloadUrlTtlMs: 60 * 60_000,
  defaultStorageQuotaBytes: 1024 * 1024 * 1024,
};

/** What every file use case works with; one per process, built at boot. */
export interface FilesContext {
  signer: FileUrlSigner;
  files: FileRecords;
  businesses: StorageAccounts;
  store: FileContents;
  policy: FilePolicy;
  now: () => Date;
  /** New file uuids and upload attempt ids. */
  newId: () => string;
}
