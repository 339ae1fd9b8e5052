import { businessScope } from '@cmsg/dal';
import { type RequestUploadCommand, requestUpload } from './request-upload.usecase';
import { inMemoryFilesContext } from './testing/in-memory-files-ports';

const scope = businessScope('b1');
const other = businessScope('b2');
const HOUR = 60 * 60_000;
const pdf = (size: number, fileName = 'menu.pdf'): RequestUploadCommand => ({ module: 'api_messages', fileName, mimeType: 'application/pdf', size });

describe('requestUpload', () => {
  let ports: ReturnType<typeof inMemoryFilesContext>;
  beforeEach(() => {
    ports = inMemoryFilesContext({ maxPendingUploads: 3 });
    ports.businesses.open('b1', { storage_quota_bytes: 1000 });
    ports.businesses.open('b2', { storage_quota_bytes: 1000 });
  });

  /** An upload of `business` requested an hour ago and never confirmed: expired now. */
  function expiredUpload(business: string, id: string, size: number): void {
    const at = new Date(ports.clock.at.getTime() - 2 * HOUR);
    ports.files.put({
      _id: id,
      business_id: business,
      module: 'api_messages',
      status: 'pending',
      file_name: `${id}.pdf`,
      mime_type: 'application/pdf',
      category: 'document',
      size,
      content_id: null,
      upload: { state: 'none', attempt_id: null, content_id: null, received_bytes: 0, sniffed_mime_types: [], sha256: null, started_at: null, finished_at: null },
      pending_expires_at: new Date(at.getTime() + HOUR),
      message_id: null,
      created_at: at,
      confirmed_at: null,
      updated_at: at,
    });
    const account = ports.businesses.accounts.get(business)!;
    account.storage_used_bytes += size;
    account.storage_reserved_file_ids.push(id);
  }

  it('stores a pending file with the normalised type, reserves its bytes and answers a signed PUT URL', async () => {
    const requested = await requestUpload(ports.context, scope, { ...pdf(400), mimeType: 'Application/PDF' });

    expect(requested).toEqual({
      file: { uuid: 'id-1', status: 'pending' },
      upload: { url: expect.stringMatching(/^https:\/\/cmsg\.example\/v1\/uploads\//), method: 'PUT', expires_at: '2026-03-02T12:15:00.000Z' },
    });
    const token = requested.upload.url.slice(requested.upload.url.lastIndexOf('/') + 1);
    expect(ports.context.signer.verify(token, 'upload', ports.clock.now())).toMatchObject({ businessId: 'b1', fileUuid: 'id-1', size: 400 });
    expect(ports.files.peek('id-1')).toMatchObject({
      business_id: 'b1',
      module: 'api_messages',
      status: 'pending',
      file_name: 'menu.pdf',
      mime_type: 'application/pdf',
      category: 'document',
      size: 400,
      pending_expires_at: new Date('2026-03-02T13:00:00Z'),
    });
    expect(ports.businesses.accounts.get('b1')).toEqual({ storage_quota_bytes: 1000, storage_used_bytes: 400, storage_reserved_file_ids: ['id-1'] });
  });

  it('takes CSV and NDJSON for broadcast audiences, with their own category', async () => {
    await requestUpload(ports.context, scope, { module: 'broadcast_audiences', fileName: 'audience.csv', mimeType: 'text/csv', size: 10 });
    expect(ports.files.peek('id-1')).toMatchObject({ module: 'broadcast_audiences', mime_type: 'text/csv', category: 'broadcast_audience' });
  });

  it('refuses a type the module does not take (INVALID_FILE_TYPE) and a size over its cap (FILE_TOO_LARGE), storing nothing', async () => {
    ports.businesses.open('b1', { storage_quota_bytes: 1024 ** 3 });
    await expect(requestUpload(ports.context, scope, { ...pdf(10), mimeType: 'application/zip' })).rejects.toMatchObject({
      code: 'INVALID_FILE_TYPE',
      message: expect.stringContaining('"application/zip" are not allowed in module api_messages'),
    });
    await expect(requestUpload(ports.context, scope, { module: 'broadcast_audiences', fileName: 'a.pdf', mimeType: 'application/pdf', size: 10 })).rejects.toMatchObject({
      code: 'INVALID_FILE_TYPE',
    });
    await expect(requestUpload(ports.context, scope, { module: 'api_messages', fileName: 'big.png', mimeType: 'image/png', size: 5 * 1024 * 1024 + 1 })).rejects.toMatchObject({
      code: 'FILE_TOO_LARGE',
      message: 'A image file may have at most 5242880 bytes (5 MiB); this one declares 5242881.',
    });
    expect(ports.files.rows.size).toBe(0);
    expect(ports.businesses.accounts.get('b1')!.storage_used_bytes).toBe(0);
  });

  it('refuses every upload of a business whose quota is 0, and a file larger than the quota (STORAGE_QUOTA_EXCEEDED)', async () => {
    ports.businesses.open('b1', { storage_quota_bytes: 0 });
    await expect(requestUpload(ports.context, scope, pdf(1))).rejects.toMatchObject({ code: 'STORAGE_QUOTA_EXCEEDED', message: 'File storage is disabled for this business (quota 0).' });
    ports.businesses.open('b1', { storage_quota_bytes: 100 });
    await expect(requestUpload(ports.context, scope, pdf(101))).rejects.toMatchObject({
      code: 'STORAGE_QUOTA_EXCEEDED',
      message: 'The file (101 bytes) is larger than the storage quota (100 bytes).',
    });
    expect(ports.files.rows.size).toBe(0);
  });

  it('gives a business stored without a quota the policy default', async () => {
    const small = inMemoryFilesContext({ defaultStorageQuotaBytes: 50 });
    small.businesses.open('b1', { storage_quota_bytes: null });
    await expect(requestUpload(small.context, scope, pdf(51))).rejects.toMatchObject({ message: 'The file (51 bytes) is larger than the storage quota (50 bytes).' });
    await expect(requestUpload(small.context, scope, pdf(50))).resolves.toMatchObject({ file: { status: 'pending' } });
  });

  it('answers FETCH_FAILED for a business that does not exist', async () => {
    await expect(requestUpload(ports.context, businessScope('nobody'), pdf(1))).rejects.toMatchObject({ code: 'FETCH_FAILED', message: 'The business of this request was not found.' });
  });

  it('refuses what does not fit with nothing expired to remove (STORAGE_QUOTA_EXCEEDED) and removes the pending file it inserted', async () => {
    await requestUpload(ports.context, scope, pdf(700));
    await expect(requestUpload(ports.context, scope, pdf(301))).rejects.toMatchObject({ code: 'STORAGE_QUOTA_EXCEEDED', message: 'The storage quota of 1000 bytes is reached.' });
    expect([...ports.files.rows.keys()]).toEqual(['id-1']);
    expect(ports.businesses.accounts.get('b1')).toMatchObject({ storage_used_bytes: 700, storage_reserved_file_ids: ['id-1'] });
    await expect(requestUpload(ports.context, scope, pdf(300))).resolves.toMatchObject({ file: { uuid: 'id-3' } });
  });

  it('removes the business expired uploads when the reservation does not fit, then reserves', async () => {
    expiredUpload('b1', 'old', 800);
    const content = ports.store.hold('old bytes');
    ports.files.rows.get('old')!.upload.content_id = content;

    await expect(requestUpload(ports.context, scope, pdf(500))).resolves.toMatchObject({ file: { uuid: 'id-1' } });
    expect(ports.files.peek('old')).toBeUndefined();
    expect(ports.store.peek(content)).toBeUndefined();
    expect(ports.businesses.accounts.get('b1')).toMatchObject({ storage_used_bytes: 500, storage_reserved_file_ids: ['id-1'] });
  });

  it('answers STORAGE_QUOTA_CLEANUP_INSUFFICIENT when removing expired uploads did not free enough', async () => {
    await requestUpload(ports.context, scope, pdf(700));
    expiredUpload('b1', 'old', 100);
    await expect(requestUpload(ports.context, scope, pdf(400))).rejects.toMatchObject({
      code: 'STORAGE_QUOTA_CLEANUP_INSUFFICIENT',
      message: 'The storage quota of 1000 bytes is reached; removing 1 expired unconfirmed upload(s) freed 100 bytes, not enough.',
    });
    expect(ports.files.peek('old')).toBeUndefined();
    expect(ports.businesses.accounts.get('b1')).toMatchObject({ storage_used_bytes: 700, storage_reserved_file_ids: ['id-1'] });
  });

  it('answers TOO_MANY_PENDING_UPLOADS at the cap, retrying when the soonest other pending upload expires', async () => {
    await requestUpload(ports.context, scope, pdf(1));
    ports.clock.advance(10 * 60_000);
    await requestUpload(ports.context, scope, pdf(1));
    await requestUpload(ports.context, scope, pdf(1));
    const refused = await requestUpload(ports.context, scope, pdf(1)).catch((error: unknown) => error);
    expect(refused).toMatchObject({
      code: 'TOO_MANY_PENDING_UPLOADS',
      message: 'At most 3 uploads may await confirmation at once; confirm some or retry after 3000 s.',
      retryAfterSeconds: 3000,
    });
    expect(ports.files.rows.size).toBe(3);
  });

  it('counts only the business own uploads and storage', async () => {
    await requestUpload(ports.context, other, pdf(1000));
    await requestUpload(ports.context, other, pdf(0));
    await requestUpload(ports.context, other, pdf(0));
    expiredUpload('b2', 'other-old', 0);
    await expect(requestUpload(ports.context, scope, pdf(1000))).resolves.toMatchObject({ file: { status: 'pending' } });
    expect(ports.files.peek('other-old')).toBeDefined();
    expect(ports.businesses.accounts.get('b2')!.storage_used_bytes).toBe(1000);
  });
});
