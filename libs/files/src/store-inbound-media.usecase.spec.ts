import { createHash } from 'node:crypto';
import { businessScope } from '@cmsg/dal';
import { MAX_INBOUND_MEDIA_BYTES, type InboundMediaInput, storeInboundMedia } from './store-inbound-media.usecase';
import { chunks, inMemoryFilesContext, storedFile } from './testing/in-memory-files-ports';

const scope = businessScope('b1');
const VOICE = Buffer.from('OggS\u0000 voice note bytes');
const media = (overrides: Partial<InboundMediaInput> = {}): InboundMediaInput => ({
  fileUuid: 'media-1',
  messageId: 'm1',
  mimeType: 'audio/ogg; codecs=opus',
  fileName: 'voice.ogg',
  content: chunks(VOICE),
  ...overrides,
});

describe('storeInboundMedia', () => {
  let ports: ReturnType<typeof inMemoryFilesContext>;
  beforeEach(() => (ports = inMemoryFilesContext()));

  it('keeps the media as a confirmed inbound_media file of the message, outside the upload quota', async () => {
    const file = await storeInboundMedia(ports.context, scope, media());
    const now = ports.clock.now();
    expect(file).toMatchObject({
      _id: 'media-1',
      business_id: 'b1',
      module: 'inbound_media',
      status: 'confirmed',
      file_name: 'voice.ogg',
      mime_type: 'audio/ogg',
      category: 'audio',
      size: VOICE.length,
      message_id: 'm1',
      created_at: now,
      confirmed_at: now,
      upload: { state: 'complete', received_bytes: VOICE.length, sha256: createHash('sha256').update(VOICE).digest('hex'), finished_at: now },
    });
    expect(file.upload.content_id).toBe(file.content_id);
    expect(ports.store.peek(file.content_id)).toEqual(VOICE);
    expect(ports.store.contents.get(String(file.content_id))!.metadata).toEqual({ business_id: 'b1', file_uuid: 'media-1', module: 'inbound_media' });
    expect(ports.businesses.accounts.size).toBe(0);
  });

  it('files a type outside the upload types under category other', async () => {
    await expect(storeInboundMedia(ports.context, scope, media({ mimeType: 'application/zip', fileName: 'a.zip' }))).resolves.toMatchObject({ mime_type: 'application/zip', category: 'other' });
  });

  it('is idempotent by file uuid: a redelivery answers the stored file without reading the media again', async () => {
    const first = await storeInboundMedia(ports.context, scope, media());
    let read = false;
    const again = (async function* () {
      read = true;
      yield Buffer.from('other bytes');
    })();
    await expect(storeInboundMedia(ports.context, scope, media({ content: again }))).resolves.toEqual(first);
    expect(read).toBe(false);
    expect(ports.store.contents.size).toBe(1);
  });

  it('keeps the content of a concurrent delivery that stored the media first, deleting its own', async () => {
    const winner = ports.store.hold(VOICE);
    const racing = (async function* () {
      yield VOICE;
      ports.files.put(storedFile({ _id: 'media-1', module: 'inbound_media', status: 'confirmed', content_id: winner, pending_expires_at: null }));
    })();
    const file = await storeInboundMedia(ports.context, scope, media({ content: racing }));
    expect(file.content_id).toBe(winner);
    expect([...ports.store.contents.values()].map((content) => content.id)).toEqual([winner]);
  });

  it('refuses media over the platform cap (FILE_TOO_LARGE), keeping nothing', async () => {
    const mib = Buffer.alloc(1024 * 1024);
    const huge = (async function* () {
      for (let sent = 0; sent <= MAX_INBOUND_MEDIA_BYTES; sent += mib.length) yield mib;
    })();
    await expect(storeInboundMedia(ports.context, scope, media({ content: huge }))).rejects.toMatchObject({
      code: 'FILE_TOO_LARGE',
      message: `The inbound media exceeds ${MAX_INBOUND_MEDIA_BYTES} bytes.`,
    });
    expect(ports.files.rows.size).toBe(0);
    expect(ports.store.contents.size).toBe(0);
  });

  it('deletes the stored content when the file cannot be recorded, passing the failure on', async () => {
    const failing = { ...ports.context, files: { findById: ports.files.findById.bind(ports.files), insertIfAbsent: async () => Promise.reject(new Error('write concern timeout')) } };
    await expect(storeInboundMedia(failing, scope, media())).rejects.toThrow('write concern timeout');
    expect(ports.store.contents.size).toBe(0);
  });

  it('stores the media of each business apart, under the same uuid scheme', async () => {
    await storeInboundMedia(ports.context, scope, media());
    await expect(storeInboundMedia(ports.context, businessScope('b2'), media({ fileUuid: 'media-2' }))).resolves.toMatchObject({ business_id: 'b2' });
    expect(await ports.files.findById(businessScope('b2'), 'media-1')).toBeNull();
  });
});
