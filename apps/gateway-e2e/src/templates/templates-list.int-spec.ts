import { randomUUID } from 'node:crypto';
import { generateApiToken } from '@cmsg/seed';
import { type TestBusiness, createTestBusiness } from '@cmsg/testing';
import { type TemplateSeed, templateSeed } from './templates-fixtures';

describe('GET /{slug}/templates and /{slug}/templates/{uuid} (CONTRACT 10.3)', () => {
  let business: TestBusiness;
  let other: TestBusiness;
  let otherTemplate: TemplateSeed;
  const t: Record<string, TemplateSeed> = {};
  const writeOnly = generateApiToken();
  const second = () => `${business.channelKey}-second`;

  beforeAll(async () => {
    business = await createTestBusiness((seed) => {
      const secondKey = `${seed.channels![0]!.public_key}-second`;
      seed.channels!.push({ public_key: secondKey, name: 'Second', phone_number_id: `pn-second-${seed.slug}` });
      seed.api_tokens!.push({ uuid: randomUUID(), token: writeOnly, scopes: ['conversations:write'] });
      t['orderEs'] = templateSeed(seed, {
        name: 'order_update',
        body: 'Hola {{1}}, tu pedido {{2}} va en camino.',
        header_type: 'text',
        buttons: [{ type: 'url', text: 'Rastrear', url: 'https://shop.example/track/{{1}}' }],
      });
      t['orderEn'] = templateSeed(seed, { name: 'order_update', language: 'en_US', status: 'paused', body: 'Hi {{1}}' });
      t['promo'] = templateSeed(seed, { name: 'promo', category: 'marketing', body: 'Sale!' });
      t['promoRejected'] = templateSeed(seed, { name: 'promo_old', category: 'marketing', status: 'rejected', body: 'Old sale' });
      t['code'] = templateSeed(seed, { name: 'login_code', category: 'authentication', body: 'Code {{1}}', channel: secondKey });
      t['welcomeSecond'] = templateSeed(seed, { name: 'welcome', status: 'pending', body: 'Welcome {{1}}', channel: secondKey });
    });
    other = await createTestBusiness((seed) => {
      otherTemplate = templateSeed(seed, { name: 'aaa_first', body: 'Theirs' });
    });
  });

  const names = (items: { name: string; language: string }[]) => items.map((item) => `${item.name}/${item.language}`);

  it('lists every template of the business by name, language and uuid, in the public shape', async () => {
    const response = await business.api.get('/templates');
    expect(response.status).toBe(200);
    expect(names(response.body.items)).toEqual(['login_code/es', 'order_update/en_US', 'order_update/es', 'promo/es', 'promo_old/es', 'welcome/es']);
    expect(response.body).toMatchObject({ has_more: false, next_cursor: '' });
    expect(response.body.items[2]).toEqual({
      uuid: t['orderEs']!.uuid,
      name: 'order_update',
      language: 'es',
      category: 'utility',
      status: 'approved',
      body: 'Hola {{1}}, tu pedido {{2}} va en camino.',
      variable_count: 2,
      header_type: 'text',
      buttons: [{ type: 'url', text: 'Rastrear', url: 'https://shop.example/track/{{1}}' }],
      channel: business.channelKey,
    });
  });

  it('filters by channel, category and status, combined with AND', async () => {
    expect(names((await business.api.get(`/templates?channel=${second()}`)).body.items)).toEqual(['login_code/es', 'welcome/es']);
    expect(names((await business.api.get('/templates?category=marketing')).body.items)).toEqual(['promo/es', 'promo_old/es']);
    expect(names((await business.api.get('/templates?status=approved')).body.items)).toEqual(['login_code/es', 'order_update/es', 'promo/es']);
    expect(names((await business.api.get(`/templates?channel=${business.channelKey}&category=marketing&status=rejected`)).body.items)).toEqual(['promo_old/es']);
    expect(names((await business.api.get(`/templates?channel=${second()}&category=marketing`)).body.items)).toEqual([]);
  });

  it('pages with cursors bound to the filters', async () => {
    const seen: string[] = [];
    let cursor = '';
    for (let page = 0; page < 5; page += 1) {
      const response = await business.api.get(`/templates?limit=2&channel=${business.channelKey}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
      expect(response.status).toBe(200);
      seen.push(...names(response.body.items));
      if (!response.body.has_more) break;
      cursor = response.body.next_cursor;
    }
    expect(seen).toEqual(['order_update/en_US', 'order_update/es', 'promo/es', 'promo_old/es']);

    const first = await business.api.get('/templates?limit=1&status=approved');
    const elsewhere = await business.api.get(`/templates?limit=1&status=paused&cursor=${encodeURIComponent(first.body.next_cursor)}`);
    expect([elsewhere.status, elsewhere.body.code]).toEqual([400, 'INVALID_CURSOR']);
    const otherList = await business.api.get(`/contacts?cursor=${encodeURIComponent(first.body.next_cursor)}`);
    expect([otherList.status, otherList.body.code]).toEqual([400, 'INVALID_CURSOR']);
  });

  it('answers 400 INVALID_REQUEST for a bad category, status or limit', async () => {
    for (const query of ['category=promo', 'status=APPROVED', 'limit=0', 'limit=101']) {
      const response = await business.api.get(`/templates?${query}`);
      expect([query, response.status, response.body.code]).toEqual([query, 400, 'INVALID_REQUEST']);
    }
  });

  it("answers 404 CHANNEL_NOT_FOUND for an unknown channel filter and for another business's channel key", async () => {
    for (const channel of ['no-such-channel', other.channelKey]) {
      const response = await business.api.get(`/templates?channel=${channel}`);
      expect([response.status, response.body.code]).toEqual([404, 'CHANNEL_NOT_FOUND']);
    }
  });

  it("gets one template, and answers 404 TEMPLATE_NOT_FOUND for an unknown uuid and another business's template", async () => {
    const one = await business.api.get(`/templates/${t['code']!.uuid}`);
    expect(one.status).toBe(200);
    expect(one.body).toMatchObject({ uuid: t['code']!.uuid, name: 'login_code', category: 'authentication', channel: second(), header_type: null, buttons: [], variable_count: 1 });
    for (const uuid of [randomUUID(), otherTemplate.uuid]) {
      const response = await business.api.get(`/templates/${uuid}`);
      expect([response.status, response.body.code]).toEqual([404, 'TEMPLATE_NOT_FOUND']);
    }
    expect(names((await business.api.get('/templates')).body.items)).not.toContain('aaa_first/es');
    expect((await other.api.get(`/templates/${otherTemplate.uuid}`)).status).toBe(200);
  });

  it('needs conversations:read', async () => {
    const writer = business.api.withToken(writeOnly);
    for (const path of ['/templates', `/templates/${t['promo']!.uuid}`]) {
      const response = await writer.get(path);
      expect([response.status, response.body.code]).toEqual([403, 'TOKEN_SCOPE_INSUFFICIENT']);
      expect(response.body.message).toContain('conversations:read');
    }
  });
});
