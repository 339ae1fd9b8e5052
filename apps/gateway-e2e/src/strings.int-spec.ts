import { randomUUID } from 'node:crypto';
import { type TestBusiness, contactSeed, createTestBusiness, minutesAgo, storedCollection, uniquePhone } from '@cmsg/testing';
import { lastRequestSeq, messageRequests, storedMessage } from './messaging/messaging-fixtures';

/** Texts that must come back exactly as sent: U+0000, right-to-left marks, emoji (astral, joined, flags). */
const SAMPLES = {
  nul: 'antes\u0000después',
  rtl: '\u200Fمرحبا بك\u200E hello \u202Eabc\u202C',
  emoji: '👩🏽‍💻 ✅ 🇲🇽 𝄞',
};
/** The longest text each field takes (in UTF-16 code units), of characters of every width, every surrogate paired. */
const fill = (length: number) => {
  const text = 'aé€😀'.repeat(length).slice(0, length);
  return /[\uD800-\uDBFF]$/.test(text) ? `${text.slice(0, -1)}a` : text;
};
const SIXTY_FOUR_KIB = 'x'.repeat(64 * 1024);
const LONE_SURROGATE = 'broken \uD800 text';

describe('strings are stored exactly as sent; blank or unstorable text is 400 INVALID_REQUEST', () => {
  let business: TestBusiness;
  const phone = uniquePhone();
  const conversations = { notes: randomUUID(), open: randomUUID(), tester: randomUUID() };

  beforeAll(async () => {
    business = await createTestBusiness((seed) => {
      contactSeed(seed, { conversation: { uuid: conversations.notes } });
      contactSeed(seed, { phone, conversation: { uuid: conversations.open, messages: [{ uuid: randomUUID(), is_from_customer: true, body: 'hola', created_at: minutesAgo(5) }] } });
      contactSeed(seed, { is_tester: true, conversation: { uuid: conversations.tester } });
    });
  });

  const invalid = (response: { status: number; body: { code?: string } }) => expect([response.status, response.body.code]).toEqual([400, 'INVALID_REQUEST']);

  describe('notes', () => {
    const note = (text: string) => business.api.post('/conversation/notes', { conversation: { uuid: conversations.notes }, note: text });

    it.each([...Object.entries(SAMPLES), ['5000 characters', fill(5000)]])('stores a note (%s) exactly', async (_label, text) => {
      const response = await note(text);
      expect(response.status).toBe(201);
      expect((await storedCollection('timeline_events').findOne({ _id: response.body.note.uuid }))?.body).toBe(text);
    });

    it.each([
      ['whitespace only', ' \t\n\u00A0'],
      ['an unpaired surrogate', LONE_SURROGATE],
      ['64 KiB, over the 5000 characters of a note', SIXTY_FOUR_KIB],
    ])('refuses %s', async (_label, text) => {
      invalid(await note(text));
    });
  });

  describe('message text', () => {
    const sendText = (conversation: string, text: string) => business.api.post('/conversation/messages/text', { conversation: { uuid: conversation }, text });

    it.each([...Object.entries(SAMPLES), ['4096 characters', fill(4096)]])('stores and sends a text (%s) exactly', async (_label, text) => {
      const since = await lastRequestSeq();
      const response = await sendText(conversations.open, text);
      expect(response.status).toBe(201);
      expect((await storedMessage(response.body.message.uuid))?.body).toBe(text);
      const [request] = await messageRequests(business, since);
      expect((request!.body as { text: { body: string } }).text.body).toBe(text);
    });

    it.each([
      ['whitespace only', '   '],
      ['an unpaired surrogate', LONE_SURROGATE],
      ['64 KiB, over the 4096 characters of a message', SIXTY_FOUR_KIB],
    ])('refuses %s before anything is sent', async (_label, text) => {
      const since = await lastRequestSeq();
      invalid(await sendText(conversations.open, text));
      expect(await messageRequests(business, since)).toEqual([]);
    });
  });

  describe('tester module', () => {
    it.each(Object.entries(SAMPLES))('stores the names of a tester contact (%s) exactly', async (_label, name) => {
      const response = await business.api.post('/tester/contacts', { first_name: name, last_name: name });
      expect(response.status).toBe(201);
      expect(response.body.contact).toMatchObject({ first_name: name, last_name: name });
      expect(await storedCollection('contacts').findOne({ _id: response.body.contact.uuid })).toMatchObject({ first_name: name, last_name: name });
    });

    it('refuses a blank or unstorable name', async () => {
      invalid(await business.api.post('/tester/contacts', { first_name: '  ' }));
      invalid(await business.api.post('/tester/contacts', { last_name: LONE_SURROGATE }));
    });

    it.each([...Object.entries(SAMPLES), ['4096 characters', fill(4096)]])('stores a simulated customer message (%s) exactly', async (_label, text) => {
      const response = await business.api.post('/tester/inbound', { conversation: { uuid: conversations.tester }, text });
      expect(response.status).toBe(201);
      expect((await storedMessage(response.body.message.uuid))?.body).toBe(text);
    });

    it('refuses a blank, unstorable or 64 KiB simulated message', async () => {
      for (const text of ['\n\n', LONE_SURROGATE, SIXTY_FOUR_KIB]) {
        invalid(await business.api.post('/tester/inbound', { conversation: { uuid: conversations.tester }, text }));
      }
    });
  });
});
