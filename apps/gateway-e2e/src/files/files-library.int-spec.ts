import { randomUUID } from 'node:crypto';
import { BusinessRepository, FileContentStore, FileRepository, businessScope } from '@cmsg/dal';
import { Files } from '@cmsg/files';
import { connectToStackDatabase, integrationStack, seedStackDatabase, storedCollection } from '@cmsg/testing';

const CONTENT_FILES = 'file_contents.files';

/** The Files API of @cmsg/files on the stack's database, as the conversations service and the messaging code use it. */
describe('Files against MongoDB (GridFS)', () => {
  let files: Files;
  const scope = businessScope(randomUUID());
  const otherScope = businessScope(randomUUID());

  beforeAll(async () => {
    await connectToStackDatabase();
    await seedStackDatabase({ businesses: [scope, otherScope].map((owner) => ({ uuid: owner.businessId, slug: `files-${owner.businessId}`, name: 'files' })) });
    files = new Files({
      signingSecret: integrationStack().env['SIGNING_SECRET']!,
      publicBaseUrl: integrationStack().gatewayUrls[0]!,
      ports: { files: new FileRepository(), businesses: new BusinessRepository(), store: new FileContentStore() },
    });
  });

  async function* bytes(content: Buffer): AsyncGenerator<Buffer> {
    yield content;
  }

  const uploaded = async (content: Buffer, mimeType: string) => {
    const requested = await files.requestUpload(scope, { module: 'api_messages', fileName: 'menu.pdf', mimeType, size: content.length });
    await files.receiveUpload(scope, requested.file.uuid, bytes(content));
    return requested.file.uuid;
  };

  it('gives a confirmed upload to sends with a signed link the gateway serves', async () => {
    const content = Buffer.concat([Buffer.from('%PDF-1.4\n'), Buffer.alloc(1000, 1)]);
    const uuid = await uploaded(content, 'application/pdf');
    await expect(files.fileForSend(scope, uuid)).rejects.toMatchObject({ code: 'FILE_NOT_FOUND' });
    await files.confirmUpload(scope, uuid);

    const forSend = await files.fileForSend(scope, uuid);
    expect(forSend).toMatchObject({ uuid, mime_type: 'application/pdf', file_name: 'menu.pdf', size: content.length, can_transcribe: false });
    expect(forSend.link).toMatch(/\/v1\/downloads\//);
    const download = await fetch(forSend.link);
    expect(download.status).toBe(200);
    expect(Buffer.from(await download.arrayBuffer()).equals(content)).toBe(true);

    await expect(files.fileForSend(otherScope, uuid)).rejects.toMatchObject({ code: 'FILE_NOT_FOUND' });
  });

  it('sweeps unconfirmed uploads past their expiry, content included, and keeps the rest', async () => {
    const expired = await uploaded(Buffer.from('expired text\n'), 'text/plain');
    const fresh = await uploaded(Buffer.from('fresh text\n'), 'text/plain');
    const contentOf = async (uuid: string) => (await storedCollection('files').findOne({ _id: uuid }))!.upload.content_id;
    const expiredContent = await contentOf(expired);
    await storedCollection('files').updateOne({ _id: expired }, { $set: { pending_expires_at: new Date(Date.now() - 1000) } });

    const swept = await files.sweepExpiredUploads();
    expect(swept.files).toBeGreaterThanOrEqual(1);
    expect(await storedCollection('files').findOne({ _id: expired })).toBeNull();
    expect(await storedCollection(CONTENT_FILES).findOne({ _id: expiredContent as never })).toBeNull();
    expect(await storedCollection('files').findOne({ _id: fresh })).toMatchObject({ status: 'pending' });
  });
});
