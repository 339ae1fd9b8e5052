import { generateApiToken } from '@cmsg/seed';
import { type TestBusiness, createTestBusiness, seedStackDatabase, storedCollection } from '@cmsg/testing';
import { randomUUID } from 'node:crypto';

describe('channel limits (CONTRACT 10.5): seed file, PATCH /{slug}/channels/{public_key}, GET /channels', () => {
  let business: TestBusiness;
  let other: TestBusiness;
  const readOnly = generateApiToken();
  const tuned = () => `${business.channelKey}-tuned`;

  beforeAll(async () => {
    business = await createTestBusiness((seed) => {
      seed.channels!.push({ public_key: `${seed.channels![0]!.public_key}-tuned`, name: 'Tuned line', phone_number_id: `pn-tuned-${seed.slug}`, max_messages_per_second: 250, messaging_limit: 10000 });
      seed.api_tokens!.push({ uuid: randomUUID(), token: readOnly, scopes: ['conversations:read'] });
    });
    other = await createTestBusiness();
  });

  const limitsOf = async (target: TestBusiness) =>
    ((await target.api.get('/channels')).body.items as { public_key: string; max_messages_per_second: number; messaging_limit: unknown }[]).map((channel) => [
      channel.public_key,
      channel.max_messages_per_second,
      channel.messaging_limit,
    ]);

  it('loads the limits a seed file gives, and the defaults for a channel without them', async () => {
    expect(await limitsOf(business)).toEqual([
      [business.channelKey, 80, 'unlimited'],
      [tuned(), 250, 10000],
    ]);
    expect(await storedCollection('channels').findOne({ business_id: business.businessId, public_key: tuned() })).toMatchObject({ max_messages_per_second: 250, messaging_limit: 10000 });
  });

  it('sets either limit or both, answers the channel and shows them in GET /channels', async () => {
    const rate = await business.api.patch(`/channels/${business.channelKey}`, { max_messages_per_second: 1000 });
    expect(rate.status).toBe(200);
    expect(rate.body).toEqual({ public_key: business.channelKey, name: 'Main line', phone: expect.stringMatching(/^\+52/), status: 'connected', max_messages_per_second: 1000, messaging_limit: 'unlimited' });
    const both = await business.api.patch(`/channels/${business.channelKey}`, { max_messages_per_second: 1, messaging_limit: 250 });
    expect(both.body).toMatchObject({ max_messages_per_second: 1, messaging_limit: 250 });
    const unlimited = await business.api.patch(`/channels/${tuned()}`, { messaging_limit: 'unlimited' });
    expect(unlimited.body).toMatchObject({ max_messages_per_second: 250, messaging_limit: 'unlimited' });
    expect(await limitsOf(business)).toEqual([
      [business.channelKey, 1, 250],
      [tuned(), 250, 'unlimited'],
    ]);
  });

  it('keeps a PATCHed limit when a file without limits is loaded again', async () => {
    await business.api.patch(`/channels/${tuned()}`, { max_messages_per_second: 300 });
    await seedStackDatabase({ businesses: [{ ...business.seed, channels: business.seed.channels!.map(({ max_messages_per_second: _rate, messaging_limit: _limit, ...channel }) => channel) }] });
    expect((await limitsOf(business)).find(([key]) => key === tuned())).toEqual([tuned(), 300, 'unlimited']);
  });

  it.each([
    [{ max_messages_per_second: 0 }],
    [{ max_messages_per_second: 1001 }],
    [{ max_messages_per_second: 12.5 }],
    [{ max_messages_per_second: '80' }],
    [{ messaging_limit: 500 }],
    [{ messaging_limit: 'UNLIMITED' }],
  ])('answers 400 INVALID_REQUEST for %j', async (body) => {
    const response = await business.api.patch(`/channels/${business.channelKey}`, body);
    expect([response.status, response.body.code]).toEqual([400, 'INVALID_REQUEST']);
  });

  it('answers the channel unchanged for an empty body (only the fields sent change)', async () => {
    const before = (await business.api.get('/channels')).body.items.find((channel: { public_key: string }) => channel.public_key === business.channelKey);
    const response = await business.api.patch(`/channels/${business.channelKey}`, {});
    expect([response.status, response.body]).toEqual([200, before]);
  });

  it("answers 404 CHANNEL_NOT_FOUND for an unknown key and for another business's channel, changing nothing", async () => {
    const unknown = await business.api.patch('/channels/no-such-channel', { max_messages_per_second: 10 });
    expect([unknown.status, unknown.body.code]).toEqual([404, 'CHANNEL_NOT_FOUND']);
    const foreign = await business.api.patch(`/channels/${other.channelKey}`, { max_messages_per_second: 10 });
    expect([foreign.status, foreign.body.code]).toEqual([404, 'CHANNEL_NOT_FOUND']);
    expect(await limitsOf(other)).toEqual([[other.channelKey, 80, 'unlimited']]);
  });

  it('needs conversations:write', async () => {
    const response = await business.api.withToken(readOnly).patch(`/channels/${business.channelKey}`, { max_messages_per_second: 10 });
    expect([response.status, response.body.code]).toEqual([403, 'TOKEN_SCOPE_INSUFFICIENT']);
    expect(response.body.message).toContain('conversations:write');
  });
});
