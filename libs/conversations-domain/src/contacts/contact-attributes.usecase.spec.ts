import { MAX_ATTRIBUTE_DEFINITIONS } from '@cmsg/contact-filter';
import { businessScope } from '@cmsg/dal';
import { defineContactAttribute, deleteContactAttribute, listContactAttributes } from './contact-attributes.usecase';
import { getContact } from './get-contact.usecase';
import { type ContactWorld, contactWorld, inMemoryContactPorts, storedContact } from './in-memory-contact-ports';

const mine = businessScope('b1');
const theirs = businessScope('b2');

describe('contact attribute definitions', () => {
  let data: ContactWorld;
  const now = { at: new Date('2026-11-29T10:00:00Z') };
  const ports = () => inMemoryContactPorts(data, now);
  const define = (input: { key: string; type: string; options?: string[] }, scope = mine) => defineContactAttribute(ports(), scope, { options: [], ...input });

  beforeEach(() => {
    data = contactWorld();
    now.at = new Date('2026-11-29T10:00:00Z');
  });

  it('defines an attribute and lists the definitions oldest first', async () => {
    await expect(define({ key: 'plan', type: 'list', options: ['free', 'pro'] })).resolves.toEqual({ key: 'plan', type: 'list', options: ['free', 'pro'], created_at: '2026-11-29T10:00:00.000Z' });
    now.at = new Date('2026-11-29T11:00:00Z');
    await define({ key: 'visits', type: 'number' });
    await expect(listContactAttributes(ports(), mine)).resolves.toEqual({
      items: [
        { key: 'plan', type: 'list', options: ['free', 'pro'], created_at: '2026-11-29T10:00:00.000Z' },
        { key: 'visits', type: 'number', options: [], created_at: '2026-11-29T11:00:00.000Z' },
      ],
    });
    await expect(listContactAttributes(ports(), theirs)).resolves.toEqual({ items: [] });
  });

  it('answers ATTRIBUTE_ALREADY_DEFINED for a key defined twice, whatever its type; another business may define it', async () => {
    await define({ key: 'plan', type: 'text' });
    await expect(define({ key: 'plan', type: 'number' })).rejects.toMatchObject({ code: 'ATTRIBUTE_ALREADY_DEFINED' });
    await expect(define({ key: 'plan', type: 'number' }, theirs)).resolves.toMatchObject({ key: 'plan', type: 'number' });
  });

  it(`answers ATTRIBUTE_LIMIT_REACHED beyond ${MAX_ATTRIBUTE_DEFINITIONS} definitions`, async () => {
    for (let n = 0; n < MAX_ATTRIBUTE_DEFINITIONS; n += 1) await define({ key: `a${n}`, type: 'text' });
    await expect(define({ key: 'one_more', type: 'text' })).rejects.toMatchObject({ code: 'ATTRIBUTE_LIMIT_REACHED' });
    expect(data.definitions.get('b1')).toHaveLength(MAX_ATTRIBUTE_DEFINITIONS);
  });

  it('answers INVALID_REQUEST for a bad key, an unknown type, options on a non-list and a list without options', async () => {
    await expect(define({ key: 'Plan', type: 'text' })).rejects.toMatchObject({ code: 'INVALID_REQUEST' });
    await expect(define({ key: 'plan', type: 'colour' })).rejects.toMatchObject({ code: 'INVALID_REQUEST' });
    await expect(define({ key: 'plan', type: 'text', options: ['a'] })).rejects.toMatchObject({ code: 'INVALID_REQUEST' });
    await expect(define({ key: 'plan', type: 'list', options: [] })).rejects.toMatchObject({ code: 'INVALID_REQUEST' });
    expect(data.definitions.get('b1')).toBeUndefined();
  });

  it('answers FETCH_FAILED when the business no longer exists', async () => {
    await expect(define({ key: 'plan', type: 'text' }, businessScope('gone'))).rejects.toMatchObject({ code: 'FETCH_FAILED' });
  });

  it('deletes a definition, answering it as it was; its values are no longer shown', async () => {
    await define({ key: 'plan', type: 'list', options: ['free', 'pro'] });
    data.contacts.push(storedContact('b1', 'ana', { attributes: [{ k: 'plan', v: 'pro' }] }));
    await expect(deleteContactAttribute(ports(), mine, 'plan')).resolves.toEqual({ key: 'plan', type: 'list', options: ['free', 'pro'], created_at: '2026-11-29T10:00:00.000Z' });
    await expect(listContactAttributes(ports(), mine)).resolves.toEqual({ items: [] });
    await expect(getContact(ports(), mine, 'ana')).resolves.toMatchObject({ attributes: {} });
    await expect(deleteContactAttribute(ports(), mine, 'plan')).rejects.toMatchObject({ code: 'ATTRIBUTE_UNDEFINED' });
  });

  it("answers ATTRIBUTE_UNDEFINED for a key never defined and for another business's key, deleting nothing", async () => {
    await define({ key: 'plan', type: 'text' }, theirs);
    await expect(deleteContactAttribute(ports(), mine, 'nope')).rejects.toMatchObject({ code: 'ATTRIBUTE_UNDEFINED' });
    await expect(deleteContactAttribute(ports(), mine, 'plan')).rejects.toMatchObject({ code: 'ATTRIBUTE_UNDEFINED' });
    expect(data.definitions.get('b2')).toHaveLength(1);
  });

  it('answers ATTRIBUTE_UNDEFINED when a concurrent delete removed the definition first', async () => {
    await define({ key: 'plan', type: 'text' });
    const racing = ports();
    const remove = racing.attributeDefinitions.remove;
    racing.attributeDefinitions.remove = async (scope, key) => {
      await remove(scope, key);
      return remove(scope, key);
    };
    await expect(deleteContactAttribute(racing, mine, 'plan')).rejects.toMatchObject({ code: 'ATTRIBUTE_UNDEFINED' });
  });
});
