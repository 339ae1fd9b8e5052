import { businessScope } from '@cmsg/dal';
import { confirmUpload } from './confirm-upload.usecase';
import { receiveUpload } from './receive-upload.usecase';
import { requestUpload } from './request-upload.usecase';
import { chunks, inMemoryFilesContext, storedFile } from './testing/in-memory-files-ports';

const scope = businessScope('b1');
const PDF = '%PDF-1.4\n%%EOF\n';
const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0, 0, 0, 0]);
const complete = (overrides: object = {}) => ({
  state: 'complete' as const,
  attempt_id: 'a1',
  content_id: null,
  received_bytes: 10,
  sniffed_mime_types: ['application/pdf'],
  sha256: null,
  started_at: null,
  finished_at: null,
  ...overrides,
});

describe('confirmUpload', () => {
  let ports: ReturnType<typeof inMemoryFilesContext>;
  beforeEach(() => {
    ports = inMemoryFilesContext();
    ports.businesses.open('b1', { storage_quota_bytes: 1000 });
  });

  it('confirms an upload whose content arrived whole as declared; its bytes stay counted, its pending place is freed', async () => {
    const requested = await requestUpload(ports.context, scope, { module: 'api_messages', fileName: 'menu.pdf', mimeType: 'application/pdf', size: PDF.length });
    const uuid = requested.file.uuid;
    await receiveUpload(ports.context, scope, uuid, chunks(PDF));
    ports.clock.advance(60_000);

    await expect(confirmUpload(ports.context, scope, uuid)).resolves.toEqual({ uuid, status: 'confirmed', mime_type: 'application/pdf', size: PDF.length, file_name: 'menu.pdf' });
    const file = ports.files.peek(uuid)!;
    expect(file).toMatchObject({ status: 'confirmed', confirmed_at: ports.clock.now(), pending_expires_at: null });
    expect(file.content_id).toBe(file.upload.content_id);
    expect(ports.businesses.accounts.get('b1')).toMatchObject({ storage_used_bytes: PDF.length, storage_reserved_file_ids: [] });
  });

  it('answers FILE_NOT_FOUND on a second confirmation: the file is no longer pending', async () => {
    ports.files.put(storedFile({ _id: 'f1', upload: complete() }));
    await confirmUpload(ports.context, scope, 'f1');
    await expect(confirmUpload(ports.context, scope, 'f1')).rejects.toMatchObject({ code: 'FILE_NOT_FOUND', message: 'No pending upload f1 in this business.' });
  });

  it.each([
    ['of another business', { business_id: 'b2' }],
    ['of inbound media', { module: 'inbound_media' as const }],
    ['already confirmed', { status: 'confirmed' as const }],
    ['expired', { pending_expires_at: new Date('2026-03-02T12:00:00Z') }],
  ])('answers FILE_NOT_FOUND for an upload %s, changing nothing', async (_what, overrides) => {
    ports.files.put(storedFile({ _id: 'f1', upload: complete(), ...overrides }));
    await expect(confirmUpload(ports.context, scope, 'f1')).rejects.toMatchObject({ code: 'FILE_NOT_FOUND', message: 'No pending upload f1 in this business.' });
    expect(ports.files.peek('f1')).toEqual(storedFile({ _id: 'f1', upload: complete(), ...overrides }));
  });

  it.each([
    ['never arrived', { state: 'none' as const }, 'The file content never arrived; PUT it to the upload URL first.'],
    ['is still arriving', { state: 'receiving' as const }, 'The file content is still arriving; confirm once the PUT has finished.'],
    ['broke off', { state: 'partial' as const }, 'The upload broke off before the whole content arrived; PUT it again or request a new upload.'],
    ['is empty', { received_bytes: 0 }, 'The uploaded content is empty.'],
  ])('answers FILE_NOT_UPLOADED when the content %s, keeping the upload pending', async (_what, upload, message) => {
    ports.files.put(storedFile({ _id: 'f1', upload: complete(upload) }));
    await expect(confirmUpload(ports.context, scope, 'f1')).rejects.toMatchObject({ code: 'FILE_NOT_UPLOADED', message });
    expect(ports.files.peek('f1')!.status).toBe('pending');
  });

  it('answers SIZE_MISMATCH when the content is not the declared size', async () => {
    ports.files.put(storedFile({ _id: 'f1', size: 10, upload: complete({ received_bytes: 9 }) }));
    await expect(confirmUpload(ports.context, scope, 'f1')).rejects.toMatchObject({ code: 'SIZE_MISMATCH', message: 'The upload has 9 bytes; 10 were declared.' });
    expect(ports.files.peek('f1')!.status).toBe('pending');
  });

  it('answers MIME_MISMATCH when the content does not sniff as the declared type; the client may PUT again and confirm', async () => {
    ports.files.put(storedFile({ _id: 'f1', size: PNG.length }));
    await receiveUpload(ports.context, scope, 'f1', chunks(PNG));
    await expect(confirmUpload(ports.context, scope, 'f1')).rejects.toMatchObject({ code: 'MIME_MISMATCH', message: 'The content is image/png; application/pdf was declared.' });
    ports.files.put(storedFile({ _id: 'f2', upload: complete({ sniffed_mime_types: [] }) }));
    await expect(confirmUpload(ports.context, scope, 'f2')).rejects.toMatchObject({ code: 'MIME_MISMATCH', message: 'The content is an unrecognised type; application/pdf was declared.' });

    await receiveUpload(ports.context, scope, 'f1', chunks(PDF.padEnd(PNG.length, '\n')));
    await expect(confirmUpload(ports.context, scope, 'f1')).resolves.toMatchObject({ status: 'confirmed' });
  });

  it('takes content that sniffs as plain text for a declared CSV', async () => {
    ports.files.put(storedFile({ _id: 'f1', module: 'broadcast_audiences', mime_type: 'text/csv', upload: complete({ sniffed_mime_types: ['text/plain'] }) }));
    await expect(confirmUpload(ports.context, scope, 'f1')).resolves.toMatchObject({ status: 'confirmed', mime_type: 'text/csv' });
  });

  it('answers FILE_NOT_FOUND when a newer PUT started between the checks and the confirmation', async () => {
    ports.files.put(storedFile({ _id: 'f1', upload: complete() }));
    ports.businesses.accounts.get('b1')!.storage_reserved_file_ids.push('f1');
    const racing = {
      ...ports.context,
      files: {
        findById: async (...args: Parameters<typeof ports.files.findById>) => {
          const found = await ports.files.findById(...args);
          ports.files.rows.get('f1')!.upload.attempt_id = 'a2';
          return found;
        },
        confirm: (...args: Parameters<typeof ports.files.confirm>) => ports.files.confirm(...args),
      },
    };
    await expect(confirmUpload(racing, scope, 'f1')).rejects.toMatchObject({
      code: 'FILE_NOT_FOUND',
      message: 'Upload f1 changed while it was being confirmed; it is no longer pending.',
    });
    expect(ports.files.peek('f1')!.status).toBe('pending');
    expect(ports.businesses.accounts.get('b1')!.storage_reserved_file_ids).toEqual(['f1']);
  });
});
