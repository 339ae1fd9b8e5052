import { createTestBusiness } from '@cmsg/testing';

describe('GET /{slug}/channels', () => {
  it('lists the business channels with public key, name, phone and status', async () => {
    const business = await createTestBusiness((seed) => {
      seed.channels!.push({ public_key: `${seed.channels![0]!.public_key}-b`, name: 'Another line', phone_number_id: `pn-b-${seed.slug}` });
    });
    const response = await business.api.get('/channels');
    expect(response.status).toBe(200);
    expect(response.body.items).toEqual([
      { public_key: `${business.channelKey}-b`, name: 'Another line', phone: null, status: 'connected', max_messages_per_second: 80, messaging_limit: 'unlimited' },
      { public_key: business.channelKey, name: 'Main line', phone: expect.stringMatching(/^\+52/), status: 'connected', max_messages_per_second: 80, messaging_limit: 'unlimited' },
    ]);
  });
});
