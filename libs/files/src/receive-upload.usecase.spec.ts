import { createHash } from 'node:crypto';
import { businessScope } from '@cmsg/dal';
import { receiveUpload } from './receive-upload.usecase';
import { brokenOff, chunks, inMemoryFilesContext, storedFile } from './testing/in-memory-files-ports';

const scope = businessScope('b1');
const PDF = '%PDF-1.4\n%%EOF\n';

describe('receiveUpload', () => {
  let ports: ReturnType<typeof inMemoryFilesContext>;
  beforeEach(() => {
    ports = inMemoryFilesContext();
    ports.files.put(storedFile({ _id: 'f1', size: PDF.length }));
  });

  it('streams the body into the store and records the complete attempt with its size, sniffed types and digest', async () => {
    await expect(receiveUpload(ports.context, scope, 'f1', chunks('%PDF-1.4\n', '%%EOF\n'))).resolves.toEqual({ receivedBytes: PDF.length });
    const { upload } = ports.files.peek('f1')!;
    expect(upload).toMatchObject({
      state: 'complete',
      attempt_id: 'id-1',
      received_bytes: PDF.length,
      sniffed_mime_types: ['application/pdf'],
      sha256: createHash('sha256').update(PDF).digest('hex'),
      started_at: ports.clock.now(),
      finished_at: ports.clock.now(),
    });
    expect(ports.store.peek(upload.content_id)!.toString()).toBe(PDF);
    expect(ports.store.contents.get(String(upload.content_id))!.metadata).toEqual({ business_id: 'b1', file_uuid: 'f1', module: 'api_messages' });
    expect(ports.files.peek('f1')!.status).toBe('pending');
  });

  it.each([
    ['a file of another business', 'f2', { business_id: 'b2' }],
    ['inbound media', 'f2', { module: 'inbound_media' as const }],
    ['a confirmed file', 'f2', { status: 'confirmed' as const }],
    ['an expired upload', 'f2', { pending_expires_at: new Date('2026-03-02T12:00:00Z') }],
  ])('answers FILE_NOT_FOUND for %s, storing nothing', async (_what, id, overrides) => {
    ports.files.put(storedFile({ _id: id, ...overrides }));
    await expect(receiveUpload(ports.context, scope, id, chunks(PDF))).rejects.toMatchObject({
      code: 'FILE_NOT_FOUND',
      message: `No pending upload ${id} in this business; request a new upload.`,
    });
    expect(ports.files.peek(id)!.upload.state).toBe('none');
    expect(ports.store.contents.size).toBe(0);
  });

  it('answers FILE_NOT_FOUND for an unknown file', async () => {
    await expect(receiveUpload(ports.context, scope, 'missing', chunks(PDF))).rejects.toMatchObject({ code: 'FILE_NOT_FOUND' });
  });

  it('cuts off a body longer than declared (SIZE_MISMATCH): nothing kept, the attempt partial', async () => {
    await expect(receiveUpload(ports.context, scope, 'f1', chunks(PDF, 'x'))).rejects.toMatchObject({
      code: 'SIZE_MISMATCH',
      message: `The body is longer than the declared size of ${PDF.length} bytes; it was cut off and discarded.`,
    });
    expect(ports.files.peek('f1')!.upload).toMatchObject({ state: 'partial', attempt_id: 'id-1', content_id: null });
    expect(ports.store.contents.size).toBe(0);
  });

  it('leaves the attempt partial when the body breaks off, passing the failure on', async () => {
    await expect(receiveUpload(ports.context, scope, 'f1', brokenOff('%PDF'))).rejects.toThrow('aborted');
    expect(ports.files.peek('f1')!.upload).toMatchObject({ state: 'partial', finished_at: ports.clock.now() });
  });

  it('a new PUT replaces the content of the previous one, which is deleted', async () => {
    await receiveUpload(ports.context, scope, 'f1', chunks('x'.repeat(PDF.length)));
    const first = ports.files.peek('f1')!.upload.content_id;
    await receiveUpload(ports.context, scope, 'f1', chunks(PDF));
    const { upload } = ports.files.peek('f1')!;
    expect(upload).toMatchObject({ attempt_id: 'id-2', sniffed_mime_types: ['application/pdf'] });
    expect(ports.store.peek(first)).toBeUndefined();
    expect(ports.store.contents.size).toBe(1);
  });

  it('an attempt overtaken by a newer one keeps nothing and answers FILE_NOT_FOUND', async () => {
    const overtaken = (async function* () {
      yield Buffer.from('%PDF');
      ports.files.rows.get('f1')!.upload.attempt_id = 'newer';
      yield Buffer.from(PDF.slice(4));
    })();
    await expect(receiveUpload(ports.context, scope, 'f1', overtaken)).rejects.toMatchObject({
      code: 'FILE_NOT_FOUND',
      message: 'Upload f1 is no longer pending, or a newer upload of it replaced this one.',
    });
    expect(ports.store.contents.size).toBe(0);
    expect(ports.files.peek('f1')!.upload).toMatchObject({ attempt_id: 'newer', state: 'receiving' });
  });
});
