import { FileUrlSigner } from '@cmsg/files';
import { type TestBusiness, createTestBusiness, integrationStack, storedCollection } from '@cmsg/testing';
import { CAPS, brokenPut, confirm, contentOf, put, requestUpload, uploadAndConfirm } from './file-fixtures';

describe('POST /{slug}/files/request-upload, PUT <upload url>, POST /{slug}/files/confirm (CONTRACT 5)', () => {
  // Each business stays under the 60 requests a minute of its token.
  let business: TestBusiness;
  let limits: TestBusiness;
  let checks: TestBusiness;
  let other: TestBusiness;

  beforeAll(async () => {
    [business, limits, checks, other] = await Promise.all([createTestBusiness(), createTestBusiness(), createTestBusiness(), createTestBusiness()]);
  });

  it.each([
    ['image/jpeg', 'photo.jpg'],
    ['image/png', 'photo.png'],
    ['image/webp', 'sticker.webp'],
    ['video/mp4', 'clip.mp4'],
    ['video/3gpp', 'clip.3gp'],
    ['audio/aac', 'note.aac'],
    ['audio/mp4', 'note.m4a'],
    ['audio/mpeg', 'note.mp3'],
    ['audio/amr', 'note.amr'],
    ['audio/ogg', 'note.ogg'],
    ['application/pdf', 'invoice.pdf'],
    ['application/msword', 'letter.doc'],
    ['application/vnd.openxmlformats-officedocument.wordprocessingml.document', 'letter.docx'],
    ['application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', 'prices.xlsx'],
    ['application/vnd.openxmlformats-officedocument.presentationml.presentation', 'deck.pptx'],
    ['text/plain', 'notes.txt'],
  ])('uploads and confirms %s', async (mimeType, fileName) => {
    const content = contentOf(mimeType, 4096);
    const requested = await requestUpload(business, { file_name: fileName, mime_type: mimeType, size: content.length });
    expect(requested.status).toBe(201);
    expect(requested.body).toEqual({
      file: { uuid: expect.any(String), status: 'pending' },
      upload: { url: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\/v1\/uploads\/[\w-]+\.[\w-]+$/), method: 'PUT', expires_at: expect.any(String) },
    });
    expect(new Date(requested.body.upload.expires_at).getTime()).toBeGreaterThan(Date.now());

    expect((await put(requested.body.upload.url, content)).status).toBe(204);
    const confirmed = await confirm(business, requested.body.file.uuid);
    expect(confirmed.status).toBe(200);
    expect(confirmed.body).toEqual({ file: { uuid: requested.body.file.uuid, status: 'confirmed', mime_type: mimeType, size: content.length, file_name: fileName } });
  });

  it('serves a confirmed file at a signed download URL, streamed from GridFS', async () => {
    const content = contentOf('application/pdf', 300_000);
    const { confirmed } = await uploadAndConfirm(business, 'application/pdf', content, 'catálogo 2025.pdf');
    const signer = new FileUrlSigner(integrationStack().env['SIGNING_SECRET']!, integrationStack().gatewayUrls[1]!);
    const grant = { businessId: business.businessId, fileUuid: confirmed.body.file.uuid, size: content.length, expiresAt: new Date(Date.now() + 60_000) };
    const response = await fetch(signer.url({ ...grant, purpose: 'download' }));
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/pdf');
    expect(response.headers.get('content-disposition')).toBe(`inline; filename="cat_logo 2025.pdf"; filename*=UTF-8''${encodeURIComponent('catálogo 2025.pdf')}`);
    expect(Buffer.from(await response.arrayBuffer()).equals(content)).toBe(true);

    // An upload token does not open a download, nor does an expired one.
    expect((await fetch(signer.url({ ...grant, purpose: 'upload' }).replace('/v1/uploads/', '/v1/downloads/'))).status).toBe(403);
    expect((await fetch(signer.url({ ...grant, purpose: 'download', expiresAt: new Date(Date.now() - 1000) }))).status).toBe(403);
  });

  it.each(Object.entries({ 'image/png': CAPS.image, 'video/mp4': CAPS.video, 'audio/ogg': CAPS.audio, 'application/pdf': CAPS.document, 'text/plain': CAPS.text }))(
    'caps %s at %i bytes: one more is 400 FILE_TOO_LARGE',
    async (mimeType, cap) => {
      expect((await requestUpload(limits, { mime_type: mimeType, size: cap })).status).toBe(201);
      const tooLarge = await requestUpload(limits, { mime_type: mimeType, size: cap + 1 });
      expect(tooLarge.status).toBe(400);
      expect(tooLarge.body.code).toBe('FILE_TOO_LARGE');
    },
  );

  it.each(['image/gif', 'application/zip', 'text/html'])('refuses type %s: 400 INVALID_FILE_TYPE', async (mimeType) => {
    const response = await requestUpload(limits, { mime_type: mimeType, size: 10 });
    expect(response.status).toBe(400);
    expect(response.body.code).toBe('INVALID_FILE_TYPE');
  });

  it('refuses content that is not the declared type on confirm: 400 MIME_MISMATCH (the upload stays pending)', async () => {
    const png = contentOf('image/png', 2048);
    const requested = await requestUpload(checks, { file_name: 'photo.jpg', mime_type: 'image/jpeg', size: png.length });
    expect((await put(requested.body.upload.url, png)).status).toBe(204);
    const mismatch = await confirm(checks, requested.body.file.uuid);
    expect(mismatch.status).toBe(400);
    expect(mismatch.body).toEqual({ code: 'MIME_MISMATCH', message: expect.stringContaining('image/png') });

    // The right content to the same URL, then confirm again.
    expect((await put(requested.body.upload.url, contentOf('image/jpeg', 2048))).status).toBe(204);
    expect((await confirm(checks, requested.body.file.uuid)).status).toBe(200);
  });

  it('answers 422 SIZE_MISMATCH when fewer bytes than declared arrived', async () => {
    const requested = await requestUpload(checks, { mime_type: 'text/plain', size: 1000 });
    expect((await put(requested.body.upload.url, contentOf('text/plain', 600))).status).toBe(204);
    const response = await confirm(checks, requested.body.file.uuid);
    expect(response.status).toBe(422);
    expect(response.body.code).toBe('SIZE_MISMATCH');
  });

  it('cuts off and refuses a body longer than declared: 422 SIZE_MISMATCH, nothing stored', async () => {
    const requested = await requestUpload(checks, { mime_type: 'text/plain', size: 1000 });
    const response = await put(requested.body.upload.url, contentOf('text/plain', 300_000));
    expect(response.status).toBe(422);
    expect(response.body.code).toBe('SIZE_MISMATCH');
    const file = await storedCollection('files').findOne({ _id: requested.body.file.uuid });
    expect(file!.upload).toMatchObject({ state: 'partial' });
    expect((await confirm(checks, requested.body.file.uuid)).body.code).toBe('FILE_NOT_UPLOADED');
  });

  it('answers 404 FILE_NOT_UPLOADED when the content never arrived, was empty, or broke off', async () => {
    const never = await requestUpload(checks, { mime_type: 'text/plain', size: 100 });
    expect((await confirm(checks, never.body.file.uuid)).body).toEqual({ code: 'FILE_NOT_UPLOADED', message: expect.any(String) });
    expect((await confirm(checks, never.body.file.uuid)).status).toBe(404);

    const empty = await requestUpload(checks, { mime_type: 'text/plain', size: 100 });
    expect((await put(empty.body.upload.url, Buffer.alloc(0))).status).toBe(204);
    expect((await confirm(checks, empty.body.file.uuid)).body.code).toBe('FILE_NOT_UPLOADED');

    const broken = await requestUpload(checks, { mime_type: 'application/pdf', size: 2_000_000 });
    await brokenPut(broken.body.upload.url, 2_000_000, contentOf('application/pdf', 700_000));
    // Nothing of it is kept: the attempt ends partial (or never started when the cancel came first).
    const state = async () => (await storedCollection('files').findOne({ _id: broken.body.file.uuid }))!.upload.state;
    await new Promise((resolve) => setTimeout(resolve, 500));
    const deadline = Date.now() + 10_000;
    while ((await state()) === 'receiving' && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
    expect(['partial', 'none']).toContain(await state());
    const response = await confirm(checks, broken.body.file.uuid);
    expect(response.status).toBe(404);
    expect(response.body.code).toBe('FILE_NOT_UPLOADED');
  });

  it('answers 404 FILE_NOT_FOUND for another business’s file, an unknown file, or one already confirmed', async () => {
    const content = contentOf('image/png', 1000);
    const requested = await requestUpload(checks, { mime_type: 'image/png', size: content.length });
    await put(requested.body.upload.url, content);
    const foreign = await confirm(other, requested.body.file.uuid);
    expect(foreign.status).toBe(404);
    expect(foreign.body.code).toBe('FILE_NOT_FOUND');
    expect((await confirm(checks, '00000000-0000-4000-8000-000000000000')).body.code).toBe('FILE_NOT_FOUND');
    expect((await confirm(checks, requested.body.file.uuid)).status).toBe(200);
    expect((await confirm(checks, requested.body.file.uuid)).body.code).toBe('FILE_NOT_FOUND');
  });

  it('refuses a PUT to a tampered upload URL: 403', async () => {
    const requested = await requestUpload(checks, { mime_type: 'text/plain', size: 10 });
    const response = await put(`${requested.body.upload.url}x`, contentOf('text/plain', 10));
    expect(response.status).toBe(403);
    expect(response.body.code).toBe('INVALID_REQUEST');
  });
});
