import { randomUUID } from 'node:crypto';
import { disconnectMongo } from '@cmsg/dal';
import { generateApiToken } from '@cmsg/seed';
import {
  type ApiClient,
  type BusinessSeedInput,
  type ContactSeedInput,
  FakeAiRemote,
  FakeCloudApiRemote,
  type TestBusiness,
  contactSeed,
  createTestBusiness,
  integrationFakes,
  minutesAgo,
  storedCollection,
} from '@cmsg/testing';

/** The business objects every action-group test business has (seed format, CONTRACT 8). */
export interface ActionCatalog {
  ai: { ana: string; broke: string };
  tags: { vip: string; lead: string; system: string };
  categories: { sales: string; empty: string };
  mailboxes: { salesNorth: string; salesSouth: string; support: string };
  templates: { approved: string; pending: string; fake: string };
  quickReplies: { welcome: string };
}

export interface ActionsBusiness extends TestBusiness {
  catalog: ActionCatalog;
  /** Extra clients of the same business with their own tokens (60 requests/minute each). */
  clients: ApiClient[];
}

const ids = (): ActionCatalog => ({
  ai: { ana: randomUUID(), broke: randomUUID() },
  tags: { vip: randomUUID(), lead: randomUUID(), system: randomUUID() },
  categories: { sales: randomUUID(), empty: randomUUID() },
  mailboxes: { salesNorth: randomUUID(), salesSouth: randomUUID(), support: randomUUID() },
  templates: { approved: randomUUID(), pending: randomUUID(), fake: randomUUID() },
  quickReplies: { welcome: randomUUID() },
});

/**
 * A fresh business with AI employees (one with an empty wallet), tags, mailboxes, templates and a
 * quick reply; `customize` adds contacts (see openConversation) and anything else.
 */
export async function createActionsBusiness(customize: (seed: BusinessSeedInput, catalog: ActionCatalog) => void = () => undefined, extraTokens = 0): Promise<ActionsBusiness> {
  const catalog = ids();
  const tokens = Array.from({ length: extraTokens }, () => ({ uuid: randomUUID(), token: generateApiToken() }));
  const business = await createTestBusiness((seed) => {
    const channel = seed.channels![0]!.public_key;
    seed.api_tokens = [...(seed.api_tokens ?? []), ...tokens];
    seed.vision_wallet_tokens = 1000;
    seed.ai_employees = [
      { uuid: catalog.ai.ana, name: 'Ana', model: 'gpt-ana', instructions: 'You are Ana, a helpful assistant.', wallet_tokens: 100_000 },
      { uuid: catalog.ai.broke, name: 'Broke', model: 'gpt-broke', wallet_tokens: 0 },
    ];
    seed.tags = [
      { uuid: catalog.tags.vip, name: 'VIP', color: '#f00' },
      { uuid: catalog.tags.lead, name: 'Lead', color: '#0f0' },
      { uuid: catalog.tags.system, name: 'Unread', color: '#000', is_default: true },
    ];
    seed.mailbox_categories = [
      {
        uuid: catalog.categories.sales,
        name: 'Sales',
        mailboxes: [
          { uuid: catalog.mailboxes.salesNorth, name: 'North' },
          { uuid: catalog.mailboxes.salesSouth, name: 'South' },
        ],
      },
      { uuid: randomUUID(), name: 'Care', mailboxes: [{ uuid: catalog.mailboxes.support, name: 'Support' }] },
      { uuid: catalog.categories.empty, name: 'Empty', mailboxes: [] },
    ];
    seed.templates = [
      { uuid: catalog.templates.approved, name: 'order_update', language: 'es_MX', status: 'approved', category: 'utility', body: 'Hola {{1}}, tu pedido va en camino.', channel },
      { uuid: catalog.templates.pending, name: 'promo_pending', language: 'es_MX', status: 'pending', category: 'marketing', body: 'Promo', channel },
      { uuid: catalog.templates.fake, name: 'test_only', language: 'es_MX', status: 'approved', category: 'utility', body: 'Test', channel, is_fake: true },
    ];
    seed.quick_replies = [{ uuid: catalog.quickReplies.welcome, name: 'Welcome', actions: [{ text: 'Welcome to our shop!' }, { text: 'How can we help?' }] }];
    customize(seed, catalog);
  });
  return { ...business, catalog, clients: tokens.map((token) => business.api.withToken(token.token)) };
}

/** A contact whose 24 h window is open (the customer wrote 5 minutes ago); returns its conversation uuid. */
export function openConversation(seed: BusinessSeedInput, conversation: Partial<NonNullable<ContactSeedInput['conversation']>> = {}, contact: Partial<ContactSeedInput> = {}): string {
  const uuid = randomUUID();
  contactSeed(seed, {
    ...contact,
    conversation: {
      uuid,
      messages: [{ uuid: randomUUID(), is_from_customer: true, body: 'Hello, I need help', content_type: 'text', created_at: minutesAgo(5) }],
      ...conversation,
    },
  });
  return uuid;
}

/** A contact that last wrote two days ago: window closed. */
export function closedConversation(seed: BusinessSeedInput, conversation: Partial<NonNullable<ContactSeedInput['conversation']>> = {}): string {
  return openConversation(seed, {
    messages: [{ uuid: randomUUID(), is_from_customer: true, body: 'Old message', content_type: 'text', created_at: minutesAgo(48 * 60) }],
    ...conversation,
  });
}

export interface StoredAction {
  index: number;
  type: string;
  status: string;
  error: { code: string; message: string } | null;
  started_at: Date | null;
  finished_at: Date | null;
}

export interface StoredGroup {
  _id: string;
  status: string;
  escalated: boolean;
  conversation_id: string;
  actions: StoredAction[];
  created_at: Date;
  finished_at: Date | null;
}

/** Read straight from the database, so waiting does not spend the token's 60 requests a minute. */
export async function storedGroup(uuid: string): Promise<StoredGroup | null> {
  return storedCollection<StoredGroup>('action_groups').findOne({ _id: uuid });
}

/** Polls until the group is no longer processing. */
export async function waitForGroup(uuid: string, timeoutMs = 120_000): Promise<StoredGroup> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const group = await storedGroup(uuid);
    if (group && group.status !== 'processing') return group;
    if (Date.now() > deadline) throw new Error(`action group ${uuid} still ${group?.status ?? 'missing'} after ${timeoutMs} ms: ${JSON.stringify(group?.actions)}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Submits a group (202 expected) and waits for its end. */
export async function runGroup(api: ApiClient, body: Record<string, unknown>, timeoutMs?: number): Promise<StoredGroup> {
  const response = await api.post('/conversation/actions', body);
  if (response.status !== 202) throw new Error(`expected 202, got ${response.status} ${JSON.stringify(response.body)}`);
  return waitForGroup(response.body.action_group.uuid, timeoutMs);
}

export const resultsOf = (group: StoredGroup) => group.actions.map((action) => [action.type, action.status, action.error?.code ?? null]);

export async function conversationDocument(uuid: string): Promise<Record<string, any> | null> {
  return storedCollection('conversations').findOne({ _id: uuid as any });
}

export function cloudApi(): FakeCloudApiRemote {
  return new FakeCloudApiRemote(integrationFakes().chatApiBaseUrl);
}

export function aiServer(): FakeAiRemote {
  return new FakeAiRemote(integrationFakes().aiBaseUrl);
}

/** Digits of the phone a contact was seeded with (what the fake Cloud API records as `to`). */
export function phoneOf(seed: BusinessSeedInput, conversationUuid: string): string {
  const contact = seed.contacts!.find((candidate) => candidate.conversation?.uuid === conversationUuid)!;
  return contact.phone!.replace(/\D/g, '');
}

/** Test files run in-band when alone: an open connection would keep jest from exiting. */
export function disconnectStackDatabase(): Promise<void> {
  return disconnectMongo();
}
