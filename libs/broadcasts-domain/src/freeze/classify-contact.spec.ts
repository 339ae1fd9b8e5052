import { aContact } from '../testing/broadcast-builders';
import { parseVariableTemplates } from '../variables';
import { classifyContact, skippedRow } from './classify-contact';

const marketing = { template: { uuid: 't', name: 'promo', language: 'en', category: 'marketing' } };
const utility = { template: { uuid: 't', name: 'notice', language: 'en', category: 'utility' } };
const authentication = { template: { uuid: 't', name: 'code', language: 'en', category: 'authentication' } };
const variables = parseVariableTemplates([
  { index: 1, value: 'Hi {{contact.first_name|there}}' },
  { index: 2, value: '{{contact.attributes.plan}}' },
]);

describe('classifyContact', () => {
  it('makes a pending recipient with its rendered variables, keyed by its contact', () => {
    const contact = aContact('c1', { first_name: ' Ana ', attributes: { plan: 'gold' } });
    expect(classifyContact(marketing, variables, contact)).toEqual({
      dedupe_key: 'c1',
      contact_id: 'c1',
      conversation_id: 'conv-c1',
      phone: '+5215512345678',
      row: null,
      variables: [
        { index: 1, value: 'Hi Ana' },
        { index: 2, value: 'gold' },
      ],
      status: 'pending',
      reason: null,
      error: null,
      attempt: 0,
      claimed_at: null,
      sent_at: null,
    });
  });

  it('takes the fallback of an empty placeholder', () => {
    const recipient = classifyContact(marketing, variables, aContact('c1', { first_name: '  ', attributes: { plan: 'gold' } }));
    expect(recipient).toMatchObject({ status: 'pending', variables: [{ index: 1, value: 'Hi there' }, { index: 2, value: 'gold' }] });
  });

  it('skips missing_variable an empty placeholder without fallback, without variables', () => {
    expect(classifyContact(marketing, variables, aContact('c1'))).toMatchObject({ status: 'skipped', reason: 'missing_variable', variables: [], contact_id: 'c1', dedupe_key: 'c1' });
  });

  it("skips opted_out the contacts opted out of the template's category only", () => {
    const noMarketing = aContact('c1', { attributes: { plan: 'gold' }, consent: { marketing: 'opted_out', utility: 'opted_in' } });
    const noUtility = aContact('c2', { attributes: { plan: 'gold' }, consent: { marketing: 'opted_in', utility: 'opted_out' } });
    expect(classifyContact(marketing, variables, noMarketing)).toMatchObject({ status: 'skipped', reason: 'opted_out' });
    expect(classifyContact(utility, variables, noMarketing)).toMatchObject({ status: 'pending' });
    expect(classifyContact(utility, variables, noUtility)).toMatchObject({ status: 'skipped', reason: 'opted_out' });
    expect(classifyContact(marketing, variables, noUtility)).toMatchObject({ status: 'pending' });
    expect(classifyContact(authentication, variables, aContact('c3', { attributes: { plan: 'gold' }, consent: { marketing: 'opted_out', utility: 'opted_out' } }))).toMatchObject({ status: 'pending' });
  });

  it('skips invalid_phone a phone of fewer than 8 or more than 15 digits, and no phone without a chat user id', () => {
    const gold = { attributes: { plan: 'gold' } };
    expect(classifyContact(marketing, variables, aContact('c1', { ...gold, phone: '+52 155 12' }))).toMatchObject({ status: 'skipped', reason: 'invalid_phone' });
    expect(classifyContact(marketing, variables, aContact('c1', { ...gold, phone: '+52 1 55 1234 5678 9012' }))).toMatchObject({ status: 'skipped', reason: 'invalid_phone' });
    expect(classifyContact(marketing, variables, aContact('c1', { ...gold, phone: null, chat_user_id: null }))).toMatchObject({ status: 'skipped', reason: 'invalid_phone' });
    expect(classifyContact(marketing, variables, aContact('c1', { ...gold, phone: null, chat_user_id: '' }))).toMatchObject({ status: 'skipped', reason: 'invalid_phone' });
    expect(classifyContact(marketing, variables, aContact('c1', { ...gold, phone: '+1 (555) 010-9999' }))).toMatchObject({ status: 'pending' });
    expect(classifyContact(marketing, variables, aContact('c1', { ...gold, phone: null, chat_user_id: 'US.123' }))).toMatchObject({ status: 'pending', phone: null });
  });

  it('says opted_out before invalid_phone before missing_variable', () => {
    const everything = aContact('c1', { phone: '1', consent: { marketing: 'opted_out', utility: 'unknown' } });
    expect(classifyContact(marketing, variables, everything).reason).toBe('opted_out');
    expect(classifyContact(utility, variables, everything).reason).toBe('invalid_phone');
  });

  it("renders a file row's columns and keeps its number", () => {
    const rowVariables = parseVariableTemplates([{ index: 1, value: '{{row.code}} for {{contact.first_name}}' }]);
    const recipient = classifyContact(marketing, rowVariables, aContact('c1'), { number: 7, columns: { code: 'X-1' } });
    expect(recipient).toMatchObject({ status: 'pending', row: 7, variables: [{ index: 1, value: 'X-1 for Ana' }] });
    expect(classifyContact(marketing, rowVariables, aContact('c1'), { number: 8, columns: { code: ' ' } })).toMatchObject({ status: 'skipped', reason: 'missing_variable', row: 8 });
  });
});

describe('skippedRow', () => {
  it('keeps a row without a usable contact as a skipped recipient, so the counts cover it', () => {
    expect(skippedRow('invalid_row', 'seq:4', 5, '+123')).toEqual({
      dedupe_key: 'seq:4',
      contact_id: null,
      conversation_id: null,
      phone: '+123',
      row: 5,
      variables: [],
      status: 'skipped',
      reason: 'invalid_row',
      error: null,
      attempt: 0,
      claimed_at: null,
      sent_at: null,
    });
  });
});
