import { storedCollection } from '@cmsg/testing';
import { WRITERS, createContendedBusiness, statusCounts, tally } from './contention-fixtures';

describe('concurrent request-uploads against the storage quota', () => {
  const SIZE = 1000;
  const FITS = 10;

  it(`admits exactly the ${FITS} of ${WRITERS} concurrent uploads the quota fits`, async () => {
    const business = await createContendedBusiness();
    await storedCollection('businesses').updateOne({ _id: business.businessId }, { $set: { storage_quota_bytes: FITS * SIZE } });
    const responses = await Promise.all(
      business.writers.map((client, index) => client.post('/files/request-upload', { module: 'api_messages', file_name: `f${index}.txt`, mime_type: 'text/plain', size: SIZE })),
    );
    expect(statusCounts(responses)).toEqual({ 201: FITS, 413: WRITERS - FITS });
    expect(responses.filter((response) => response.status === 413).every((response) => response.body.code === 'STORAGE_QUOTA_EXCEEDED')).toBe(true);

    const admitted = responses.filter((response) => response.status === 201).map((response) => response.body.file.uuid as string);
    const stored = await storedCollection('files').find({ business_id: business.businessId }).toArray();
    const reservations = (await storedCollection('businesses').findOne({ _id: business.businessId }))!;
    expect(reservations.storage_used_bytes).toBe(FITS * SIZE);
    const files = tally('upload-quota-files', WRITERS, admitted, stored.map((file) => file._id));
    const reserved = tally('upload-quota-reservations', WRITERS, admitted, reservations.storage_reserved_file_ids as string[]);
    for (const result of [files, reserved]) expect(result).toMatchObject({ lost: 0, twice: 0 });
  });
});
