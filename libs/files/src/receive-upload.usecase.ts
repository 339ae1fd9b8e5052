import { CatalogError } from '@cmsg/errors';
import type { BusinessScope } from '@cmsg/dal';
import { SNIFF_BYTES, sniffContent } from './content-sniffing';
import { isUploadModule } from './file-types';
import type { FilesContext } from './files-context';

/**
 * The PUT of an upload URL: streams the bytes into GridFS and records the attempt on the pending
 * file. A body longer than declared is cut off at the declared size and discarded (SIZE_MISMATCH);
 * a body that breaks off leaves the upload `partial` (confirm answers FILE_NOT_UPLOADED). The
 * client may PUT again while the file is pending: the newest complete attempt replaces the older.
 */
export async function receiveUpload(context: FilesContext, scope: BusinessScope, fileUuid: string, content: AsyncIterable<Buffer>): Promise<{ receivedBytes: number }> {
  const now = context.now();
  const file = await context.files.findById(scope, fileUuid);
  if (!file || !isUploadModule(file.module) || file.status !== 'pending' || (file.pending_expires_at && file.pending_expires_at <= now)) {
    throw new CatalogError('FILE_NOT_FOUND', `No pending upload ${fileUuid} in this business; request a new upload.`);
  }
  const attemptId = context.newId();
  await context.files.startUploadAttempt(scope, fileUuid, attemptId, now);

  let stored;
  try {
    stored = await context.store.write(content, {
      filename: fileUuid,
      metadata: { business_id: scope.businessId, file_uuid: fileUuid, module: file.module },
      maxBytes: file.size,
      headBytes: SNIFF_BYTES,
      tooLong: (maxBytes) => new CatalogError('SIZE_MISMATCH', `The body is longer than the declared size of ${maxBytes} bytes; it was cut off and discarded.`),
    });
  } catch (error) {
    await context.files.markUploadPartial(scope, fileUuid, attemptId, context.now());
    throw error;
  }

  const finishedAt = context.now();
  // Only the latest attempt on a still-pending file may record its content.
  const before = await context.files.completeUploadAttempt(
    scope,
    fileUuid,
    {
      state: 'complete',
      attempt_id: attemptId,
      content_id: stored.contentId,
      received_bytes: stored.size,
      sniffed_mime_types: [...sniffContent(stored.head).candidates],
      sha256: stored.sha256,
      started_at: now,
      finished_at: finishedAt,
    },
    finishedAt,
  );
  if (!before) {
    await context.store.delete(stored.contentId);
    throw new CatalogError('FILE_NOT_FOUND', `Upload ${fileUuid} is no longer pending, or a newer upload of it replaced this one.`);
  }
  const replaced = before.upload?.content_id;
  if (replaced && !replaced.equals(stored.contentId)) await context.store.delete(replaced);
  return { receivedBytes: stored.size };
}
