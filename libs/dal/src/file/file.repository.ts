import { type BusinessScope, scopedFilter } from '../shared/business-scope';
import { insertIfAbsent } from '../shared/duplicate-key';
import { TenantRepository } from '../shared/tenant-repository';
import type { FileEntity, FileModule, UploadAttempt } from './file.entity';
import { FileModel } from './file.schema';

/** A new file, as stored (business_id comes from the scope); absent fields take their defaults. */
export type NewFile = Omit<FileEntity, 'business_id' | 'content_id' | 'upload' | 'pending_expires_at' | 'message_id' | 'confirmed_at'> &
  Partial<Pick<FileEntity, 'content_id' | 'pending_expires_at' | 'message_id' | 'confirmed_at'>> & { upload?: Partial<UploadAttempt> };

/** What sweeping an expired upload needs to know. */
export type ExpiredUpload = Pick<FileEntity, '_id' | 'business_id' | 'size' | 'upload'>;

const EXPIRED_PROJECTION = { business_id: 1, size: 1, upload: 1 } as const;
const EXPIRED_STATUSES = ['pending', 'expired'];

export class FileRepository extends TenantRepository<FileEntity> {
  constructor() {
    super(FileModel);
  }

  async insert(scope: BusinessScope, file: NewFile): Promise<void> {
    await FileModel.create({ ...file, business_id: scope.businessId });
  }

  /** False when a file with this id exists (inbound media ids derive from the provider's media id). */
  insertIfAbsent(scope: BusinessScope, file: NewFile): Promise<boolean> {
    return insertIfAbsent(() => FileModel.create({ ...file, business_id: scope.businessId }));
  }

  /** A PUT starts on a pending upload: it becomes the attempt whose result counts. */
  async startUploadAttempt(scope: BusinessScope, id: string, attemptId: string, now: Date): Promise<void> {
    await FileModel.updateOne(scopedFilter(scope, { _id: id, status: 'pending' }), {
      $set: { 'upload.state': 'receiving', 'upload.attempt_id': attemptId, 'upload.started_at': now, 'upload.finished_at': null, updated_at: now },
    });
  }

  /** The attempt broke off (only if it is still the latest). */
  async markUploadPartial(scope: BusinessScope, id: string, attemptId: string, now: Date): Promise<void> {
    await FileModel.updateOne(scopedFilter(scope, { _id: id, 'upload.attempt_id': attemptId }), { $set: { 'upload.state': 'partial', 'upload.finished_at': now, updated_at: now } });
  }

  /**
   * Records a finished attempt if it is still the latest on a still-pending upload. Answers the file
   * as it was before (to delete the content it replaces), or null when the attempt lost.
   */
  completeUploadAttempt(scope: BusinessScope, id: string, upload: UploadAttempt, now: Date): Promise<FileEntity | null> {
    return FileModel.findOneAndUpdate(scopedFilter(scope, { _id: id, status: 'pending', 'upload.attempt_id': upload.attempt_id }), { $set: { upload, updated_at: now } })
      .lean<FileEntity>()
      .exec();
  }

  /** Confirms a pending, unexpired upload whose latest attempt is the one checked: false when it changed meanwhile. */
  async confirm(scope: BusinessScope, file: Pick<FileEntity, '_id' | 'upload'>, now: Date): Promise<boolean> {
    const confirmed = await FileModel.updateOne(
      scopedFilter(scope, { _id: file._id, status: 'pending', pending_expires_at: { $gt: now }, 'upload.state': 'complete', 'upload.attempt_id': file.upload.attempt_id }),
      { $set: { status: 'confirmed', content_id: file.upload.content_id, confirmed_at: now, pending_expires_at: null, updated_at: now } },
    );
    return confirmed.modifiedCount === 1;
  }

  /** The business's unconfirmed uploads past their expiry (and removals a crash left half done). */
  findExpired(scope: BusinessScope, now: Date, limit: number): Promise<ExpiredUpload[]> {
    return FileModel.find(scopedFilter(scope, { status: { $in: EXPIRED_STATUSES }, pending_expires_at: { $lte: now } }), EXPIRED_PROJECTION)
      .limit(limit)
      .lean<ExpiredUpload[]>()
      .exec();
  }

  /** The same, for every business (the periodic sweeper). */
  findExpiredAcrossBusinesses(now: Date, limit: number): Promise<ExpiredUpload[]> {
    return FileModel.find({ status: { $in: EXPIRED_STATUSES }, pending_expires_at: { $lte: now } }, EXPIRED_PROJECTION).limit(limit).lean<ExpiredUpload[]>().exec();
  }

  /** Takes an expired upload out of use (a confirmation can no longer win): false when it was confirmed or removed. */
  async markExpired(scope: BusinessScope, id: string, now: Date): Promise<boolean> {
    const marked = await FileModel.updateOne(scopedFilter(scope, { _id: id, status: { $in: EXPIRED_STATUSES }, pending_expires_at: { $lte: now } }), {
      $set: { status: 'expired', updated_at: now },
    });
    return marked.matchedCount === 1;
  }

  async deleteExpired(scope: BusinessScope, id: string): Promise<void> {
    await FileModel.deleteOne(scopedFilter(scope, { _id: id, status: 'expired' }));
  }

  /** Removes an upload whose reservation was refused (it was never answered to the client). */
  async deleteUnreserved(scope: BusinessScope, id: string): Promise<void> {
    await FileModel.deleteOne(scopedFilter(scope, { _id: id, status: 'pending' }));
  }

  /** Whether the business holds this file, confirmed, in this module (a send or schedule naming an upload). */
  async isConfirmedIn(scope: BusinessScope, id: string, module: FileModule): Promise<boolean> {
    const file = await this.collection().findOne(scopedFilter(scope, { _id: id, status: 'confirmed' as const, module }), { projection: { _id: 1 } });
    return file !== null;
  }

  /** The business's unconfirmed, unexpired uploads with their expiry. */
  findUnexpiredPending(scope: BusinessScope, now: Date): Promise<Pick<FileEntity, '_id' | 'pending_expires_at'>[]> {
    return FileModel.find(scopedFilter(scope, { status: 'pending', pending_expires_at: { $gt: now } }), { pending_expires_at: 1 })
      .lean<Pick<FileEntity, '_id' | 'pending_expires_at'>[]>()
      .exec();
  }
}
