import type { BusinessScope } from '@cmsg/dal';
import { type FileEntity, FileModel } from './file.model';
import type { FilesContext } from './files-context';

export interface CleanupResult {
  files: number;
  bytes: number;
}

/**
 * Removes unconfirmed uploads past their expiry: the document first (compare-and-set on its
 * status and expiry, so a confirm that won the race keeps its file), then its content. A crash in
 * between leaves an orphan GridFS file, never a file without content.
 */
export async function removeExpiredUploads(context: FilesContext, scope: BusinessScope | undefined, batch = 200): Promise<CleanupResult> {
  const now = context.now();
  const filter = { status: 'pending', pending_expires_at: { $lte: now }, ...(scope ? { business_id: scope.businessId } : {}) };
  const expired = await FileModel.find(filter).limit(batch).lean<FileEntity[]>();
  const result: CleanupResult = { files: 0, bytes: 0 };
  for (const file of expired) {
    const removed = await FileModel.deleteOne({ _id: file._id, status: 'pending', pending_expires_at: { $lte: now } });
    if (removed.deletedCount !== 1) continue;
    await context.store.delete(file.upload?.content_id);
    result.files += 1;
    result.bytes += file.size;
  }
  return result;
}

/** The periodic job: every business's expired uploads, in batches until none is left. */
export async function sweepExpiredUploads(context: FilesContext): Promise<CleanupResult> {
  const total: CleanupResult = { files: 0, bytes: 0 };
  for (;;) {
    const pass = await removeExpiredUploads(context, undefined);
    total.files += pass.files;
    total.bytes += pass.bytes;
    if (pass.files === 0) return total;
  }
}
