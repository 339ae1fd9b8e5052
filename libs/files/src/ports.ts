import type { BusinessRepository, FileContentStore, FileRepository } from '@cmsg/dal';

/** The files collection as the file use cases read and write it (FileRepository in the apps). */
export type FileRecords = Pick<
  FileRepository,
  | 'findById'
  | 'findByIds'
  | 'insert'
  | 'insertIfAbsent'
  | 'startUploadAttempt'
  | 'markUploadPartial'
  | 'completeUploadAttempt'
  | 'confirm'
  | 'findExpired'
  | 'findExpiredAcrossBusinesses'
  | 'markExpired'
  | 'deleteExpired'
  | 'deleteUnreserved'
  | 'findUnexpiredPending'
>;

/** A business's storage account: its quota and the uploads reserved on it (BusinessRepository in the apps). */
export type StorageAccounts = Pick<BusinessRepository, 'findById' | 'reserveStorage' | 'releaseStorage' | 'keepStorage'>;

/** The bytes of every file (FileContentStore, GridFS, in the apps). */
export type FileContents = Pick<FileContentStore, 'write' | 'openRead' | 'readAll' | 'delete'>;

/** What the file use cases store through, built once by the app. */
export interface FilesPorts {
  files: FileRecords;
  businesses: StorageAccounts;
  store: FileContents;
}
