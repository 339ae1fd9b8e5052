import { businessScope } from '@cmsg/dal';
import { CatalogError } from '@cmsg/errors';
import { getTemplate } from './get-template.usecase';
import { InMemoryChannelStore, InMemoryTemplateStore, channelRow, templateRow } from './in-memory-template-stores';

const mine = businessScope('b1');
const theirs = businessScope('b2');

describe('getTemplate', () => {
  let templates: InMemoryTemplateStore;
  let channels: InMemoryChannelStore;
  const get = (uuid: string, scope = mine) => getTemplate({ templates, channels }, scope, uuid);

  beforeEach(() => {
    templates = new InMemoryTemplateStore();
    channels = new InMemoryChannelStore();
    channels.rows.push(channelRow('b1', 'c1', 'main'), channelRow('b1', 'c2', 'second'), channelRow('b2', 'c9', 'other'));
    templates.rows.push(
      templateRow('b1', 't4', { name: 'code', category: 'authentication', channel_id: 'c2', header_type: 'image', buttons: [{ type: 'quick_reply', text: 'OK' }] }),
      templateRow('b1', 'orphan', { channel_id: 'c9' }),
      templateRow('b2', 't9', { name: 'alpha', channel_id: 'c9' }),
    );
  });

  it('answers a template of the business in its public shape, with its channel public key', async () => {
    await expect(get('t4')).resolves.toEqual({
      uuid: 't4',
      name: 'code',
      language: 'es',
      category: 'authentication',
      status: 'approved',
      body: 'Hola {{1}}',
      variable_count: 1,
      header_type: 'image',
      buttons: [{ type: 'quick_reply', text: 'OK' }],
      channel: 'second',
    });
  });

  it("answers TEMPLATE_NOT_FOUND for a missing template and for another business's", async () => {
    await expect(get('nope')).rejects.toMatchObject({ code: 'TEMPLATE_NOT_FOUND' });
    await expect(get('t9')).rejects.toThrow(CatalogError);
    await expect(get('t9')).rejects.toMatchObject({ code: 'TEMPLATE_NOT_FOUND' });
    await expect(get('t9', theirs)).resolves.toMatchObject({ uuid: 't9', channel: 'other' });
  });

  it("fails (not a catalog error: a broken reference, answered INTERNAL) when the template's channel is not the business's", async () => {
    const failure = get('orphan');
    await expect(failure).rejects.toThrow('template orphan names channel c9, which the business does not have');
    await expect(get('orphan')).rejects.not.toBeInstanceOf(CatalogError);
  });
});
