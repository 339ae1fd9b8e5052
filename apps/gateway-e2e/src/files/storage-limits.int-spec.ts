import { createTestBusiness, storedCollection } from '@cmsg/testing';
import { confirm, contentOf, put, requestUpload, uploadAndConfirm } from './file-fixtures';

describe('Upload storage quota and pending-upload cap (CONTRACT 5)', () => {
  const withQuota = async (bytes: number) => {
    const business = await createTestBusiness();
    await storedCollection('businesses').updateOne({ _id: business.businessId }, { $set: { storage_quota_bytes: bytes } });
    return business;
  };
  /** Ages a business's pending uploads past their expiry, as if they had been left unconfirmed for long. */
  const expirePending = (businessId: string) =>
    storedCollection('files').updateMany({ business_id: businessId, status: 'pending' }, { $set: { pending_expires_at: new Date(Date.now() - 1000) } });

  // Storage disabled (quota 0) refuses every upload: libs/files/src/request-upload.usecase.spec.ts.

  it('counts confirmed and pending uploads against the quota: 413 STORAGE_QUOTA_EXCEEDED when nothing can be cleaned', async () => {
    const business = await withQuota(10_000);
    expect((await uploadAndConfirm(business, 'text/plain', contentOf('text/plain', 6000))).confirmed.status).toBe(200);
    expect((await requestUpload(business, { mime_type: 'text/plain', size: 3000 })).status).toBe(201);
    const over = await requestUpload(business, { mime_type: 'text/plain', size: 2000 });
    expect(over.status).toBe(413);
    expect(over.body.code).toBe('STORAGE_QUOTA_EXCEEDED');
    // The refused reservation was not kept: what fits still fits.
    expect((await requestUpload(business, { mime_type: 'text/plain', size: 1000 })).status).toBe(201);
  });

  it('removes expired unconfirmed uploads to make room, and their content with them', async () => {
    const business = await withQuota(10_000);
    const stale = await requestUpload(business, { mime_type: 'text/plain', size: 8000 });
    expect((await put(stale.body.upload.url, contentOf('text/plain', 8000))).status).toBe(204);
    await expirePending(business.businessId);

    const fresh = await requestUpload(business, { mime_type: 'text/plain', size: 5000 });
    expect(fresh.status).toBe(201);
    expect(await storedCollection('files').findOne({ _id: stale.body.file.uuid })).toBeNull();
  });

  it('answers 507 STORAGE_QUOTA_CLEANUP_INSUFFICIENT when removing expired uploads frees too little', async () => {
    const business = await withQuota(10_000);
    expect((await uploadAndConfirm(business, 'text/plain', contentOf('text/plain', 7000))).confirmed.status).toBe(200);
    expect((await requestUpload(business, { mime_type: 'text/plain', size: 1000 })).status).toBe(201);
    await expirePending(business.businessId);

    const response = await requestUpload(business, { mime_type: 'text/plain', size: 4000 });
    expect(response.status).toBe(507);
    expect(response.body.code).toBe('STORAGE_QUOTA_CLEANUP_INSUFFICIENT');
    expect(await storedCollection('files').countDocuments({ business_id: business.businessId, status: 'pending' })).toBe(0);
  });

  it('caps unconfirmed uploads at 20: the 21st is 429 TOO_MANY_PENDING_UPLOADS with Retry-After', async () => {
    const business = await createTestBusiness();
    const requested = [];
    for (let index = 0; index < 20; index += 1) {
      requested.push(await requestUpload(business, { mime_type: 'text/plain', size: 10 }));
      expect(requested.at(-1)!.status).toBe(201);
    }
    const response = await requestUpload(business, { mime_type: 'text/plain', size: 10 });
    expect(response.status).toBe(429);
    expect(response.body.code).toBe('TOO_MANY_PENDING_UPLOADS');
    const retryAfter = Number(response.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(3600);

    // Confirming one frees a slot.
    expect((await put(requested[0]!.body.upload.url, contentOf('text/plain', 10))).status).toBe(204);
    expect((await confirm(business, requested[0]!.body.file.uuid)).status).toBe(200);
    expect((await requestUpload(business, { mime_type: 'text/plain', size: 10 })).status).toBe(201);
    expect((await requestUpload(business, { mime_type: 'text/plain', size: 10 })).status).toBe(429);

    // A confirmed upload whose slot a crash kept (confirmed, but the business still counts it as
    // pending) is found by the next refused request's cleanup, which frees the slot.
    const crashed = requested[1]!.body.file.uuid;
    await storedCollection('files').updateOne({ _id: crashed }, { $set: { status: 'confirmed', pending_expires_at: null } });
    expect((await requestUpload(business, { mime_type: 'text/plain', size: 10 })).status).toBe(201);
  });
});
