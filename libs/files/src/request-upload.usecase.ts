import { randomUUID } from 'node:crypto';
import { CatalogError } from '@cmsg/errors';
import { BusinessModel, type BusinessScope } from '@cmsg/dal';
import { removeExpiredUploads } from './expired-uploads';
import { checkDeclaredFile } from './file-types';
import { FileModel } from './file.model';
import type { FilesContext } from './files-context';

export interface RequestUploadCommand {
  module: 'api_messages';
  fileName: string;
  mimeType: string;
  size: number;
}

export interface RequestedUpload {
  file: { uuid: string; status: 'pending' };
  upload: { url: string; method: 'PUT'; expires_at: string };
}

/**
 * POST /files/request-upload: checks the declared type and size, reserves the space, answers a
 * signed PUT URL. The reservation is the pending file itself, inserted first and then checked
 * against the pending cap and the quota together with every other reservation (no transactions on
 * FerretDB): concurrent requests at the limit may both be refused, never both admitted beyond it.
 */
export async function requestUpload(context: FilesContext, scope: BusinessScope, command: RequestUploadCommand): Promise<RequestedUpload> {
  const { mimeType, category } = checkDeclaredFile(command.mimeType, command.size);
  const quota = await storageQuotaOf(context, scope);
  if (quota === 0) throw new CatalogError('STORAGE_QUOTA_EXCEEDED', 'File storage is disabled for this business (quota 0).');
  if (command.size > quota) throw new CatalogError('STORAGE_QUOTA_EXCEEDED', `The file (${command.size} bytes) is larger than the storage quota (${quota} bytes).`);

  const now = context.now();
  const uuid = randomUUID();
  const uploadExpiresAt = new Date(now.getTime() + context.policy.uploadUrlTtlMs);
  await FileModel.create({
    _id: uuid,
    business_id: scope.businessId,
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
    await assertPendingCap(context, scope, uuid);
    await assertQuota(context, scope, quota);
  } catch (error) {
    await FileModel.deleteOne({ _id: uuid, business_id: scope.businessId, status: 'pending' });
    throw error;
  }
  const url = context.signer.url({ purpose: 'upload', businessId: scope.businessId, fileUuid: uuid, size: command.size, expiresAt: uploadExpiresAt });
  return { file: { uuid, status: 'pending' }, upload: { url, method: 'PUT', expires_at: uploadExpiresAt.toISOString() } };
}

async function storageQuotaOf(context: FilesContext, scope: BusinessScope): Promise<number> {
  const business = await BusinessModel.findById(scope.businessId, { storage_quota_bytes: 1 }).lean<{ storage_quota_bytes?: number | null }>();
  if (!business) throw new CatalogError('FETCH_FAILED', 'The business of this request was not found.');
  const quota = business.storage_quota_bytes;
  return typeof quota === 'number' && Number.isFinite(quota) && quota >= 0 ? quota : context.policy.defaultStorageQuotaBytes;
}

/** TOO_MANY_PENDING_UPLOADS, with Retry-After until the oldest other reservation expires. */
async function assertPendingCap(context: FilesContext, scope: BusinessScope, ownUuid: string): Promise<void> {
  const now = context.now();
  const pending = await FileModel.find(
    { business_id: scope.businessId, module: 'api_messages', status: 'pending', pending_expires_at: { $gt: now } },
    { _id: 1, pending_expires_at: 1 },
  ).lean<{ _id: string; pending_expires_at: Date }[]>();
  const cap = context.policy.maxPendingUploads;
  if (pending.length <= cap) return;
  const others = pending.filter((file) => file._id !== ownUuid).map((file) => file.pending_expires_at.getTime());
  const soonest = others.length > 0 ? Math.min(...others) : now.getTime() + context.policy.pendingTtlMs;
  const retryAfterSeconds = Math.max(1, Math.ceil((soonest - now.getTime()) / 1000));
  throw new CatalogError('TOO_MANY_PENDING_UPLOADS', `At most ${cap} uploads may await confirmation at once; confirm some or retry after ${retryAfterSeconds} s.`, {
    retryAfterSeconds,
  });
}

/**
 * Pending and confirmed uploads together must fit the quota. When they do not, expired
 * unconfirmed uploads are removed first: STORAGE_QUOTA_EXCEEDED when there was nothing to remove,
 * STORAGE_QUOTA_CLEANUP_INSUFFICIENT when removing them did not free enough.
 */
async function assertQuota(context: FilesContext, scope: BusinessScope, quota: number): Promise<void> {
  const used = await storedBytes(scope);
  if (used <= quota) return;
  const cleaned = await removeExpiredUploads(context, scope);
  if (cleaned.files === 0) throw new CatalogError('STORAGE_QUOTA_EXCEEDED', `The storage quota of ${quota} bytes is reached.`);
  const after = await storedBytes(scope);
  if (after <= quota) return;
  throw new CatalogError(
    'STORAGE_QUOTA_CLEANUP_INSUFFICIENT',
    `The storage quota of ${quota} bytes is reached; removing ${cleaned.files} expired unconfirmed upload(s) freed ${cleaned.bytes} bytes, not enough.`,
  );
}

/** Declared bytes of the business's uploads, pending and confirmed (inbound media do not count). */
async function storedBytes(scope: BusinessScope): Promise<number> {
  // $sum of a field only: FerretDB 1.x answers 0 for `{ $sum: 1 }`.
  const [row] = await FileModel.aggregate<{ total: number }>([
    { $match: { business_id: scope.businessId, module: 'api_messages' } },
    { $group: { _id: null, total: { $sum: '$size' } } },
  ]);
  return row?.total ?? 0;
}
