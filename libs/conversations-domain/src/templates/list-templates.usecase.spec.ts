import { businessScope } from '@cmsg/dal';
import { ListCursorCodec } from '../listing/list-cursor';
import { InMemoryChannelStore, InMemoryTemplateStore, channelRow as channel, templateRow as template } from './in-memory-template-stores';
import { listTemplates } from './list-templates.usecase';

const mine = businessScope('b1');

describe('listTemplates', () => {
  let templates: InMemoryTemplateStore;
  let channels: InMemoryChannelStore;
  const codec = new ListCursorCodec('secret');
  const list = (request: Parameters<typeof listTemplates>[3], scope = mine) => listTemplates({ templates, channels }, scope, codec, request);

  beforeEach(() => {
    templates = new InMemoryTemplateStore();
    channels = new InMemoryChannelStore();
    channels.rows.push(channel('b1', 'c1', 'main'), channel('b1', 'c2', 'second'), channel('b2', 'c9', 'other'));
    templates.rows.push(
      template('b1', 't3', { name: 'welcome', language: 'es', category: 'marketing' }),
      template('b1', 't2', { name: 'order_update', language: 'es' }),
      template('b1', 't1', { name: 'order_update', language: 'en', status: 'paused', buttons: [{ type: 'quick_reply', text: 'OK' }] }),
      template('b1', 't4', { name: 'code', language: 'es', category: 'authentication', channel_id: 'c2' }),
      template('b2', 't9', { name: 'alpha', channel_id: 'c9' }),
    );
  });

  it('lists the business templates by name, language and uuid, with the channel public key', async () => {
    const page = await list({ limit: 50 });
    expect(page.items.map((item) => [item.name, item.language, item.channel])).toEqual([
      ['code', 'es', 'second'],
      ['order_update', 'en', 'main'],
      ['order_update', 'es', 'main'],
      ['welcome', 'es', 'main'],
    ]);
    expect(page.items[1]).toEqual({
      uuid: 't1',
      name: 'order_update',
      language: 'en',
      category: 'utility',
      status: 'paused',
      body: 'Hola {{1}}',
      variable_count: 1,
      header_type: undefined,
      buttons: [{ type: 'quick_reply', text: 'OK' }],
      channel: 'main',
    });
    expect(page).toMatchObject({ has_more: false, next_cursor: '' });
  });

  it('pages with cursors bound to the filters', async () => {
    const first = await list({ limit: 1, category: 'utility' });
    expect(first.items.map((item) => item.uuid)).toEqual(['t1']);
    expect(first.has_more).toBe(true);
    const second = await list({ limit: 1, category: 'utility', cursor: first.next_cursor });
    expect(second.items.map((item) => item.uuid)).toEqual(['t2']);
    expect(second).toMatchObject({ has_more: false, next_cursor: '' });
    await expect(list({ limit: 1, category: 'marketing', cursor: first.next_cursor })).rejects.toMatchObject({ code: 'INVALID_CURSOR' });
  });

  it('filters by channel, category and status together', async () => {
    expect((await list({ limit: 50, channel: 'second' })).items.map((item) => item.uuid)).toEqual(['t4']);
    expect((await list({ limit: 50, status: 'paused' })).items.map((item) => item.uuid)).toEqual(['t1']);
    expect((await list({ limit: 50, channel: 'main', category: 'utility', status: 'approved' })).items.map((item) => item.uuid)).toEqual(['t2']);
  });

  it('refuses an unknown channel (another business’s included) and unknown category or status values', async () => {
    await expect(list({ limit: 50, channel: 'other' })).rejects.toMatchObject({ code: 'CHANNEL_NOT_FOUND' });
    await expect(list({ limit: 50, category: 'promo' })).rejects.toMatchObject({ code: 'INVALID_REQUEST' });
    await expect(list({ limit: 50, status: 'APPROVED' })).rejects.toMatchObject({ code: 'INVALID_REQUEST' });
  });
});
