import { CatalogError } from '@cmsg/errors';
import type { BusinessScope, StorageReservation } from '@cmsg/dal';
import { type CleanupResult, removeExpiredUploads } from './expired-uploads';
import { type UploadFileModule, checkDeclaredFile } from './file-types';
import type { FilesContext } from './files-context';

export interface RequestUploadCommand {
  module: UploadFileModule;
  fileName: string;
  mimeType: string;
  size: number;
}

export interface RequestedUpload {
  file: { uuid: string; status: 'pending' };
  upload: { url: string; method: 'PUT'; expires_at: string };
}

/**
 * POST /files/request-upload: checks the declared type and size against the module's (api_messages:
 * the chat platform's media; broadcast_audiences: CSV and NDJSON), reserves the space, answers a
 * signed PUT URL. The pending file is inserted first, then its bytes and its place among the
 * pending uploads are reserved on the business in one conditional update (used + size <= quota,
 * fewer pending uploads than the cap): of concurrent requests exactly those that fit are admitted.
 * A crash between the two leaves a pending file without a reservation, removed at its expiry
 * without giving back bytes it never took.
 */
export async function requestUpload(context: FilesContext, scope: BusinessScope, command: RequestUploadCommand): Promise<RequestedUpload> {
  const { mimeType, category } = checkDeclaredFile(command.mimeType, command.size, command.module);
  const quota = await storageQuotaOf(context, scope);
  if (quota === 0) throw new CatalogError('STORAGE_QUOTA_EXCEEDED', 'File storage is disabled for this business (quota 0).');
  if (command.size > quota) throw new CatalogError('STORAGE_QUOTA_EXCEEDED', `The file (${command.size} bytes) is larger than the storage quota (${quota} bytes).`);

  const now = context.now();
  const uuid = context.newId();
  const uploadExpiresAt = new Date(now.getTime() + context.policy.uploadUrlTtlMs);
  await context.files.insert(scope, {
    _id: uuid,
    module: command.module,
    status: 'pending',
    file_name: command.fileName,
    mime_type: mimeType,
    category,
    size: command.size,
    pending_expires_at: new Date(now.getTime() + context.policy.pendingTtlMs),
    created_at: now,
    updated_at: now,
  });
  try {
    await reserveStorage(context, scope, { fileId: uuid, bytes: command.size, quotaBytes: quota, maxPendingUploads: context.policy.maxPendingUploads });
  } catch (error) {
    await context.files.deleteUnreserved(scope, uuid);
    throw error;
  }
  const url = context.signer.url({ purpose: 'upload', businessId: scope.businessId, fileUuid: uuid, size: command.size, expiresAt: uploadExpiresAt });
  return { file: { uuid, status: 'pending' }, upload: { url, method: 'PUT', expires_at: uploadExpiresAt.toISOString() } };
}

async function storageQuotaOf(context: FilesContext, scope: BusinessScope): Promise<number> {
  const business = await context.businesses.findById(scope);
  if (!business) throw new CatalogError('FETCH_FAILED', 'The business of this request was not found.');
  const quota = business.storage_quota_bytes;
  return typeof quota === 'number' && Number.isFinite(quota) && quota >= 0 ? quota : context.policy.defaultStorageQuotaBytes;
}

/**
 * When the reservation does not fit, the business's expired unconfirmed uploads are removed first
 * and it is tried once more. Still refused: TOO_MANY_PENDING_UPLOADS at the cap (Retry-After until
 * the oldest other reservation expires); else STORAGE_QUOTA_EXCEEDED when there was nothing to
 * remove, STORAGE_QUOTA_CLEANUP_INSUFFICIENT when removing it did not free enough.
 */
async function reserveStorage(context: FilesContext, scope: BusinessScope, reservation: StorageReservation): Promise<void> {
  if (await context.businesses.reserveStorage(scope, reservation)) return;
  const cleaned = await removeExpiredUploads(context, scope);
  if (await context.businesses.reserveStorage(scope, reservation)) return;
  const business = await context.businesses.findById(scope);
  if ((business?.storage_reserved_file_ids.length ?? 0) >= reservation.maxPendingUploads) throw await tooManyPendingUploads(context, scope, reservation);
  throw quotaExceeded(reservation.quotaBytes, cleaned);
}

async function tooManyPendingUploads(context: FilesContext, scope: BusinessScope, reservation: StorageReservation): Promise<CatalogError> {
  const now = context.now();
  const others = (await context.files.findUnexpiredPending(scope, now))
    .filter((file) => file._id !== reservation.fileId && file.pending_expires_at)
    .map((file) => file.pending_expires_at!.getTime());
  const soonest = others.length > 0 ? Math.min(...others) : now.getTime() + context.policy.pendingTtlMs;
  const retryAfterSeconds = Math.max(1, Math.ceil((soonest - now.getTime()) / 1000));
  return new CatalogError('TOO_MANY_PENDING_UPLOADS', `At most ${reservation.maxPendingUploads} uploads may await confirmation at once; confirm some or retry after ${retryAfterSeconds} s.`, {
    retryAfterSeconds,
  });
}

function quotaExceeded(quota: number, cleaned: CleanupResult): CatalogError {
  if (cleaned.files === 0) return new CatalogError('STORAGE_QUOTA_EXCEEDED', `The storage quota of ${quota} bytes is reached.`);
  return new CatalogError(
    'STORAGE_QUOTA_CLEANUP_INSUFFICIENT',
    `The storage quota of ${quota} bytes is reached; removing ${cleaned.files} expired unconfirmed upload(s) freed ${cleaned.bytes} bytes, not enough.`,
  );
}
