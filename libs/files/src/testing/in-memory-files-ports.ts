import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import type { BusinessEntity, BusinessScope, ContentId, FileEntity, StoredContent, StorageReservation, UploadAttempt, WriteContentOptions } from '@cmsg/dal';
import { type ManualClock, manualClock } from '@cmsg/platform';
import { FileUrlSigner } from '../file-url-signing';
import { DEFAULT_FILE_POLICY, type FilePolicy, type FilesContext } from '../files-context';
import type { FileContents, FileRecords, StorageAccounts } from '../ports';

/**
 * A content id of the in-memory store. GridFS ids are ObjectIds, which the use cases only compare
 * with `equals`; this one does the same without the driver.
 */
class MemoryContentId {
  constructor(readonly serial: number) {}

  equals(other: unknown): boolean {
    return other instanceof MemoryContentId && other.serial === this.serial;
  }

  toString(): string {
    return `content-${this.serial}`;
  }
}

/** A copy of a stored file that keeps its content ids (immutable, compared with `equals`) as they are. */
function copyOf(file: FileEntity): FileEntity {
  return { ...file, upload: { ...file.upload, sniffed_mime_types: [...file.upload.sniffed_mime_types] } };
}

const NO_UPLOAD: UploadAttempt = { state: 'none', attempt_id: null, content_id: null, received_bytes: 0, sniffed_mime_types: [], sha256: null, started_at: null, finished_at: null };

/** A stored file as a spec arranges it: a pending api_messages PDF of business b1 unless told otherwise. */
export function storedFile(overrides: Partial<FileEntity> & Pick<FileEntity, '_id'>): FileEntity {
  const at = new Date('2026-03-02T11:30:00Z');
  return {
    business_id: 'b1',
    module: 'api_messages',
    status: 'pending',
    file_name: `${overrides._id}.pdf`,
    mime_type: 'application/pdf',
    category: 'document',
    size: 10,
    content_id: null,
    upload: { ...NO_UPLOAD },
    pending_expires_at: new Date('2026-03-02T12:30:00Z'),
    message_id: null,
    created_at: at,
    confirmed_at: null,
    updated_at: at,
    ...overrides,
  };
}

/** The files collection in memory, with FileRepository's filters (scope, status, attempt, expiry). */
export class InMemoryFileRecords implements FileRecords {
  readonly rows = new Map<string, FileEntity>();

  /** A stored file, as the collection holds it (a spec arranges one, or reads one back). */
  put(file: FileEntity): void {
    this.rows.set(file._id, copyOf(file));
  }

  /** The stored file regardless of business, for assertions. */
  peek(id: string): FileEntity | undefined {
    const row = this.rows.get(id);
    return row && copyOf(row);
  }

  async findById(scope: BusinessScope, id: string): Promise<FileEntity | null> {
    return this.copy(this.scoped(scope, id)) ?? null;
  }

  async findByIds(scope: BusinessScope, ids: readonly string[]): Promise<FileEntity[]> {
    return [...new Set(ids)].map((id) => this.scoped(scope, id)).flatMap((row) => (row ? [copyOf(row)] : []));
  }

  async insert(scope: BusinessScope, file: Parameters<FileRecords['insert']>[1]): Promise<void> {
    if (this.rows.has(file._id)) throw new Error(`E11000 duplicate key: file ${file._id}`);
    this.rows.set(file._id, this.stored(scope, file));
  }

  async insertIfAbsent(scope: BusinessScope, file: Parameters<FileRecords['insertIfAbsent']>[1]): Promise<boolean> {
    if (this.rows.has(file._id)) return false;
    this.rows.set(file._id, this.stored(scope, file));
    return true;
  }

  async startUploadAttempt(scope: BusinessScope, id: string, attemptId: string, now: Date): Promise<void> {
    const row = this.scoped(scope, id);
    if (row?.status !== 'pending') return;
    row.upload = { ...row.upload, state: 'receiving', attempt_id: attemptId, started_at: now, finished_at: null };
    row.updated_at = now;
  }

  async markUploadPartial(scope: BusinessScope, id: string, attemptId: string, now: Date): Promise<void> {
    const row = this.scoped(scope, id);
    if (row?.upload.attempt_id !== attemptId) return;
    row.upload = { ...row.upload, state: 'partial', finished_at: now };
    row.updated_at = now;
  }

  async completeUploadAttempt(scope: BusinessScope, id: string, upload: UploadAttempt, now: Date): Promise<FileEntity | null> {
    const row = this.scoped(scope, id);
    if (row?.status !== 'pending' || row.upload.attempt_id !== upload.attempt_id) return null;
    const before = copyOf(row);
    row.upload = { ...upload };
    row.updated_at = now;
    return before;
  }

  async confirm(scope: BusinessScope, file: Pick<FileEntity, '_id' | 'upload'>, now: Date): Promise<boolean> {
    const row = this.scoped(scope, file._id);
    if (!row || row.status !== 'pending' || !row.pending_expires_at || row.pending_expires_at <= now) return false;
    if (row.upload.state !== 'complete' || row.upload.attempt_id !== file.upload.attempt_id) return false;
    Object.assign(row, { status: 'confirmed', content_id: file.upload.content_id, confirmed_at: now, pending_expires_at: null, updated_at: now });
    return true;
  }

  async findExpired(scope: BusinessScope, now: Date, limit: number) {
    return this.expired(now, limit, scope);
  }

  async findExpiredAcrossBusinesses(now: Date, limit: number) {
    return this.expired(now, limit);
  }

  async markExpired(scope: BusinessScope, id: string, now: Date): Promise<boolean> {
    const row = this.scoped(scope, id);
    if (!row || !isExpiredUpload(row, now)) return false;
    Object.assign(row, { status: 'expired', updated_at: now });
    return true;
  }

  async deleteExpired(scope: BusinessScope, id: string): Promise<void> {
    if (this.scoped(scope, id)?.status === 'expired') this.rows.delete(id);
  }

  async deleteUnreserved(scope: BusinessScope, id: string): Promise<void> {
    if (this.scoped(scope, id)?.status === 'pending') this.rows.delete(id);
  }

  async findUnexpiredPending(scope: BusinessScope, now: Date): Promise<Pick<FileEntity, '_id' | 'pending_expires_at'>[]> {
    return [...this.rows.values()]
      .filter((row) => row.business_id === scope.businessId && row.status === 'pending' && row.pending_expires_at !== null && row.pending_expires_at > now)
      .map((row) => ({ _id: row._id, pending_expires_at: row.pending_expires_at }));
  }

  private expired(now: Date, limit: number, scope?: BusinessScope) {
    return [...this.rows.values()]
      .filter((row) => (!scope || row.business_id === scope.businessId) && isExpiredUpload(row, now))
      .slice(0, limit)
      .map((row) => ({ _id: row._id, business_id: row.business_id, size: row.size, upload: { ...row.upload } }));
  }

  private stored(scope: BusinessScope, file: Parameters<FileRecords['insert']>[1]): FileEntity {
    return copyOf({
      content_id: null,
      pending_expires_at: null,
      message_id: null,
      confirmed_at: null,
      ...file,
      upload: { ...NO_UPLOAD, ...file.upload },
      business_id: scope.businessId,
    });
  }

  private scoped(scope: BusinessScope, id: string): FileEntity | undefined {
    const row = this.rows.get(id);
    return row?.business_id === scope.businessId ? row : undefined;
  }

  private copy(row: FileEntity | undefined): FileEntity | undefined {
    return row && copyOf(row);
  }
}

function isExpiredUpload(row: FileEntity, now: Date): boolean {
  return (row.status === 'pending' || row.status === 'expired') && row.pending_expires_at !== null && row.pending_expires_at <= now;
}

/** The storage fields of a business, as BusinessRepository's storage methods keep them. */
export interface StorageAccount {
  storage_quota_bytes?: number | null;
  storage_used_bytes: number;
  storage_reserved_file_ids: string[];
}

/** Businesses' storage accounts in memory, with BusinessRepository's conditional updates. */
export class InMemoryStorageAccounts implements StorageAccounts {
  readonly accounts = new Map<string, StorageAccount>();

  open(businessId: string, account: Partial<StorageAccount> = {}): StorageAccount {
    const opened = { storage_quota_bytes: 1024 * 1024, storage_used_bytes: 0, storage_reserved_file_ids: [], ...account };
    this.accounts.set(businessId, opened);
    return opened;
  }

  async findById(scope: BusinessScope): Promise<BusinessEntity | null> {
    const account = this.accounts.get(scope.businessId);
    return account ? ({ _id: scope.businessId, ...structuredClone(account) } as unknown as BusinessEntity) : null;
  }

  async reserveStorage(scope: BusinessScope, reservation: StorageReservation): Promise<boolean> {
    const account = this.accounts.get(scope.businessId);
    if (!account) return false;
    if (account.storage_used_bytes > reservation.quotaBytes - reservation.bytes) return false;
    if (account.storage_reserved_file_ids.includes(reservation.fileId)) return false;
    if (account.storage_reserved_file_ids.length >= reservation.maxPendingUploads) return false;
    account.storage_used_bytes += reservation.bytes;
    account.storage_reserved_file_ids.push(reservation.fileId);
    return true;
  }

  async releaseStorage(scope: BusinessScope, fileId: string, bytes: number): Promise<boolean> {
    const account = this.accounts.get(scope.businessId);
    if (!account?.storage_reserved_file_ids.includes(fileId)) return false;
    account.storage_used_bytes -= bytes;
    account.storage_reserved_file_ids = account.storage_reserved_file_ids.filter((id) => id !== fileId);
    return true;
  }

  async keepStorage(scope: BusinessScope, fileId: string): Promise<void> {
    const account = this.accounts.get(scope.businessId);
    if (account) account.storage_reserved_file_ids = account.storage_reserved_file_ids.filter((id) => id !== fileId);
  }
}

/** File bytes in memory, with FileContentStore's write rules (cap, head, sha256, nothing kept on failure). */
export class InMemoryFileContents implements FileContents {
  readonly contents = new Map<string, { id: ContentId; bytes: Buffer; metadata: Record<string, unknown> }>();
  private serial = 0;

  async write(source: AsyncIterable<Buffer>, options: WriteContentOptions): Promise<StoredContent> {
    const parts: Buffer[] = [];
    let received = 0;
    for await (const chunk of source) {
      received += chunk.length;
      if (received > options.maxBytes) throw options.tooLong(options.maxBytes);
      parts.push(chunk);
    }
    const bytes = Buffer.concat(parts);
    const id = new MemoryContentId((this.serial += 1)) as unknown as ContentId;
    this.contents.set(String(id), { id, bytes, metadata: options.metadata });
    return { contentId: id, size: bytes.length, sha256: createHash('sha256').update(bytes).digest('hex'), head: bytes.subarray(0, options.headBytes) };
  }

  openRead(contentId: ContentId, range?: { start: number; end: number }): Readable {
    const bytes = this.bytesOf(contentId);
    return Readable.from([range ? bytes.subarray(range.start, range.end) : bytes]);
  }

  async readAll(contentId: ContentId, maxBytes: number): Promise<Buffer> {
    return this.bytesOf(contentId).subarray(0, maxBytes);
  }

  async delete(contentId: ContentId | null | undefined): Promise<void> {
    if (contentId) this.contents.delete(String(contentId));
  }

  /** Content already stored (an earlier upload's), as a spec arranges it. */
  hold(bytes: Buffer | string): ContentId {
    const id = new MemoryContentId((this.serial += 1)) as unknown as ContentId;
    this.contents.set(String(id), { id, bytes: Buffer.from(bytes), metadata: {} });
    return id;
  }

  /** The bytes of a content the store holds, or undefined once deleted. */
  peek(contentId: ContentId | null | undefined): Buffer | undefined {
    return contentId ? this.contents.get(String(contentId))?.bytes : undefined;
  }

  private bytesOf(contentId: ContentId): Buffer {
    const content = this.contents.get(String(contentId));
    if (!content) throw new Error(`FileNotFound: no content ${String(contentId)}`);
    return content.bytes;
  }
}

/** A clock a spec moves by hand. */
export type TestClock = ManualClock;
export const testClock = manualClock;

export const TEST_SIGNING_SECRET = 'test-signing-secret';
export const TEST_PUBLIC_BASE_URL = 'https://cmsg.example';

/** A FilesContext over in-memory ports, with a hand-moved clock and sequential ids (`id-1`, `id-2`, ...). */
export function inMemoryFilesContext(policy: Partial<FilePolicy> = {}) {
  const clock = testClock();
  let ids = 0;
  const files = new InMemoryFileRecords();
  const businesses = new InMemoryStorageAccounts();
  const store = new InMemoryFileContents();
  const context: FilesContext = {
    signer: new FileUrlSigner(TEST_SIGNING_SECRET, TEST_PUBLIC_BASE_URL),
    files,
    businesses,
    store,
    policy: { ...DEFAULT_FILE_POLICY, ...policy },
    now: clock.now,
    newId: () => `id-${(ids += 1)}`,
  };
  return { context, clock, files, businesses, store };
}

/** Content as a PUT body or a provider download streams it, in chunks. */
export async function* chunks(...parts: (Buffer | string)[]): AsyncGenerator<Buffer> {
  for (const part of parts) yield Buffer.from(part);
}

/** A body that breaks off after its first chunks (a dropped connection). */
export async function* brokenOff(...parts: (Buffer | string)[]): AsyncGenerator<Buffer> {
  yield* chunks(...parts);
  throw new Error('aborted: the connection closed');
}
