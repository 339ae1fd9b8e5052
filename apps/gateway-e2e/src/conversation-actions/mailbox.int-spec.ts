import { randomUUID } from 'node:crypto';
import { type TestBusiness, contactSeed, createTestBusiness } from '@cmsg/testing';
import { storedConversation } from './conversation-actions.fixtures';

describe('POST /{slug}/conversation/mailbox (CONTRACT 5)', () => {
  let business: TestBusiness;
  const mailboxes = { sales: randomUUID(), salesNorth: randomUUID(), support: randomUUID(), billingA: randomUUID(), billingB: randomUUID() };
  const categories = { sales: randomUUID(), support: randomUUID(), empty: randomUUID(), twinA: randomUUID(), twinB: randomUUID() };
  const foreign = { category: randomUUID(), mailbox: randomUUID() };
  const conversations = { main: randomUUID(), other: randomUUID(), inSupport: randomUUID() };

  beforeAll(async () => {
    await createTestBusiness((seed) => {
      seed.mailbox_categories = [{ uuid: foreign.category, name: 'Foreign', mailboxes: [{ uuid: foreign.mailbox, name: 'Foreign box' }] }];
    });
    business = await createTestBusiness((seed) => {
      seed.mailbox_categories = [
        // Inserted out of name order: the category's first mailbox is chosen by name.
        { uuid: categories.sales, name: 'Sales', mailboxes: [{ uuid: mailboxes.salesNorth, name: 'sales north' }, { uuid: mailboxes.sales, name: 'Sales Inbox' }] },
        { uuid: categories.support, name: 'Support', mailboxes: [{ uuid: mailboxes.support, name: 'Support' }] },
        { uuid: categories.empty, name: 'Empty', mailboxes: [] },
        { uuid: categories.twinA, name: 'Twin', mailboxes: [{ uuid: mailboxes.billingA, name: 'Billing' }] },
        { uuid: categories.twinB, name: 'twin', mailboxes: [{ uuid: mailboxes.billingB, name: 'billing' }] },
      ];
      contactSeed(seed, { conversation: { uuid: conversations.main } });
      contactSeed(seed, { conversation: { uuid: conversations.other } });
      contactSeed(seed, { conversation: { uuid: conversations.inSupport, mailbox: mailboxes.support } });
    });
  });

  const move = (conversation: string, target: Record<string, unknown>) => business.api.post('/conversation/mailbox', { conversation: { uuid: conversation }, ...target });

  it('moves a conversation to a mailbox by uuid, then by name', async () => {
    const byUuid = await move(conversations.main, { mailbox: { uuid: mailboxes.support } });
    expect(byUuid.status).toBe(200);
    expect(byUuid.body).toEqual({ conversation: { uuid: conversations.main }, mailbox: { uuid: mailboxes.support, name: 'Support' } });
    const byName = await move(conversations.main, { mailbox: { name: 'SALES NORTH' } });
    expect(byName.body).toEqual({ conversation: { uuid: conversations.main }, mailbox: { uuid: mailboxes.salesNorth, name: 'sales north' } });
    expect((await storedConversation(conversations.main))?.mailbox_id).toBe(mailboxes.salesNorth);
  });

  it("moves a conversation to a category's first mailbox by name, by category uuid or name", async () => {
    const byUuid = await move(conversations.other, { category: { uuid: categories.sales } });
    expect(byUuid.status).toBe(200);
    expect(byUuid.body.mailbox).toEqual({ uuid: mailboxes.sales, name: 'Sales Inbox' });
    const byName = await move(conversations.other, { category: { name: 'support' } });
    expect(byName.body.mailbox).toEqual({ uuid: mailboxes.support, name: 'Support' });
  });

  it('answers 409 MAILBOX_ALREADY_ASSIGNED when it is already there, directly or through its category', async () => {
    for (const target of [{ mailbox: { uuid: mailboxes.support } }, { category: { name: 'Support' } }]) {
      const response = await move(conversations.inSupport, target);
      expect([response.status, response.body.code]).toEqual([409, 'MAILBOX_ALREADY_ASSIGNED']);
    }
  });

  it.each<[string, number, string, Record<string, unknown>]>([
    ['MAILBOX_NOT_FOUND', 404, 'an unknown mailbox uuid', { mailbox: { uuid: randomUUID() } }],
    ['MAILBOX_NOT_FOUND', 404, 'an unknown mailbox name', { mailbox: { name: 'nowhere' } }],
    ['MAILBOX_NOT_FOUND', 404, 'a mailbox uuid of another business', { mailbox: { uuid: foreign.mailbox } }],
    ['AMBIGUOUS_MAILBOX', 409, 'a mailbox name shared by two mailboxes', { mailbox: { name: 'billing' } }],
    ['CATEGORY_NOT_FOUND', 404, 'an unknown category uuid', { category: { uuid: randomUUID() } }],
    ['CATEGORY_NOT_FOUND', 404, 'a category name of another business', { category: { name: 'Foreign' } }],
    ['CATEGORY_BUSINESS_MISMATCH', 403, 'a category uuid of another business', { category: { uuid: foreign.category } }],
    ['AMBIGUOUS_CATEGORY', 409, 'a category name shared by two categories', { category: { name: 'TWIN' } }],
    ['NO_MAILBOXES_IN_CATEGORY', 422, 'a category without mailboxes', { category: { uuid: categories.empty } }],
  ])('answers %s (%i) for %s, changing nothing', async (code, status, _case, target) => {
    const before = (await storedConversation(conversations.inSupport))?.mailbox_id;
    const response = await move(conversations.inSupport, target);
    expect(response.status).toBe(status);
    expect(response.body).toEqual({ code, message: expect.any(String) });
    expect((await storedConversation(conversations.inSupport))?.mailbox_id).toBe(before);
  });

  it('needs exactly one of mailbox or category', async () => {
    for (const target of [{}, { mailbox: { uuid: mailboxes.sales }, category: { uuid: categories.sales } }]) {
      const response = await move(conversations.main, target);
      expect([response.status, response.body.code]).toEqual([400, 'INVALID_REQUEST']);
    }
  });
});
