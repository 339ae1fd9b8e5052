import { type BusinessScope, businessScope } from '@cmsg/dal';
import type { FilesContext } from './files-context';

export interface CleanupResult {
  files: number;
  bytes: number;
}

/**
 * Removes unconfirmed uploads past their expiry, each in this order: taken out of use (a
 * conditional update, so a confirmation that won the race keeps its file), its reservation given
 * back to the business (once, whoever repeats it), its content, its document. A crash part-way
 * leaves it `expired`, and the next pass finishes it. With a business, also frees the places of
 * uploads confirmed while a crash kept their reservation (see confirmUpload).
 */
export async function removeExpiredUploads(context: FilesContext, scope: BusinessScope | undefined, batch = 200): Promise<CleanupResult> {
  const now = context.now();
  const expired = scope ? await context.files.findExpired(scope, now, batch) : await context.files.findExpiredAcrossBusinesses(now, batch);
  const result: CleanupResult = { files: 0, bytes: 0 };
  for (const file of expired) {
    const owner = businessScope(file.business_id);
    if (!(await context.files.markExpired(owner, file._id, now))) continue;
    await context.businesses.releaseStorage(owner, file._id, file.size);
    await context.store.delete(file.upload?.content_id);
    await context.files.deleteExpired(owner, file._id);
    result.files += 1;
    result.bytes += file.size;
  }
  if (scope) await freeConfirmedReservations(context, scope);
  return result;
}

async function freeConfirmedReservations(context: FilesContext, scope: BusinessScope): Promise<void> {
  const business = await context.businesses.findById(scope);
  const reserved = await context.files.findByIds(scope, business?.storage_reserved_file_ids ?? []);
  for (const file of reserved) {
    if (file.status === 'confirmed') await context.businesses.keepStorage(scope, file._id);
  }
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
