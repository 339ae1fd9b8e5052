import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { type TestBusiness, WORKSPACE_ROOT, contactSeed, createTestBusiness, eventually, integrationStack, minutesAgo } from '@cmsg/testing';
import type { Browser, Page } from 'playwright-core';
import { type PageMisbehaviour, launchHeadlessChromium, watchPage } from './headless-chromium';

const SCREENSHOT = path.join(WORKSPACE_ROOT, '.run/test-results/api-reference.png');

interface OpenApiDocument {
  paths: Record<string, Record<string, { operationId: string }>>;
  webhooks: Record<string, Record<string, { operationId: string }>>;
}

/** GET /docs in headless Chromium against the real stack: what an integrator opening the reference sees and can do. */
describe('the API reference in a browser', () => {
  const gatewayUrl = integrationStack().gatewayUrls[0]!;
  let business: TestBusiness;
  let conversation: string;
  let document: OpenApiDocument;
  let browser: Browser;
  let page: Page;
  let misbehaviour: PageMisbehaviour;

  beforeAll(async () => {
    business = await createTestBusiness((seed) => {
      conversation = contactSeed(seed, {
        conversation: { uuid: randomUUID(), messages: [{ uuid: randomUUID(), is_from_customer: true, body: 'hola', created_at: minutesAgo(5) }] },
      }).conversation!.uuid!;
    });
    document = (await (await fetch(`${gatewayUrl}/v1/openapi.json`)).json()) as OpenApiDocument;
    browser = await launchHeadlessChromium();
    page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    misbehaviour = await watchPage(page);
    await page.goto(`${gatewayUrl}/docs`);
    await page.waitForSelector('.swagger-ui .opblock', { timeout: 30_000 });
  }, 90_000);

  afterAll(async () => {
    await browser?.close();
  });

  it('shows every operation and every webhook event of the document', async () => {
    const documented = (items: OpenApiDocument['paths']) => Object.values(items).flatMap((item) => Object.values(item).map((operation) => operation.operationId));
    const expected = [...documented(document.paths), ...documented(document.webhooks)].sort();
    const shown = await visibleOperationIds(page);
    expect(expected.length).toBeGreaterThan(90);
    expect([...new Set(shown)].sort()).toEqual(expected);
  });

  it('finds operations and webhook events by what the search box is given: path, summary, event or operation id', async () => {
    expect(await searchFor(page, 'conversation/status', (ids) => ids.length < 10)).toEqual(['getConversationStatus']);
    expect(await searchFor(page, 'message.received', (ids) => !ids.includes('getConversationStatus'))).toEqual(['onMessageReceivedEvent']);
    const scheduled = await searchFor(page, 'SCHEDULED message', (ids) => !ids.includes('onMessageReceivedEvent'));
    expect(scheduled.length).toBeGreaterThan(4);
    expect(scheduled.every((id) => /scheduled/i.test(id))).toBe(true);
    expect(scheduled).toEqual(expect.arrayContaining(['createScheduledMessage', 'onScheduledMessageSentEvent', 'onScheduledMessageFailedEvent']));
  });

  it('sends a "try it" request to the status endpoint with the token given under Authorize, and shows the 200', async () => {
    await searchFor(page, '', (ids) => ids.length > 90);
    await page.locator('button.btn.authorize').first().click();
    await page.locator('.auth-container input').first().fill(business.token);
    await page.locator('.auth-container button.authorize').click();
    await page.locator('.auth-btn-wrapper button.btn-done').click();

    const operation = page.locator('.opblock[id$="-getConversationStatus"]');
    await operation.locator('.opblock-summary').click();
    await operation.locator('button.try-out__btn').click();
    await operation.locator('tr[data-param-name="slug"] input').fill(business.slug);
    await operation.locator('textarea.body-param__text').fill(JSON.stringify({ conversation: { uuid: conversation } }));
    await operation.locator('button.execute').click();
    const status = operation.locator('.live-responses-table .response .response-col_status');
    await status.first().waitFor({ timeout: 15_000 });
    expect(await status.first().textContent()).toBe('200');
    expect(await operation.locator('.live-responses-table .response .response-col_description').first().textContent()).toContain(conversation);

    await operation.locator('.live-responses-table').scrollIntoViewIfNeeded();
    mkdirSync(path.dirname(SCREENSHOT), { recursive: true });
    await page.screenshot({ path: SCREENSHOT, fullPage: false });
    // The token was only in the page's memory.
    expect(await page.evaluate<string>('JSON.stringify({ ...localStorage }) + JSON.stringify({ ...sessionStorage }) + document.cookie')).not.toContain(business.token);
  });

  it('logged no console error, no CSP violation, and made no request off loopback', () => {
    expect(misbehaviour).toEqual({ consoleErrors: [], pageErrors: [], cspViolations: [], requestsOffLoopback: [] });
  });

  it('serves the guides beside it, reachable from the page', async () => {
    await page.locator('nav.cmsg-docs-bar a', { hasText: 'Integrating' }).click();
    await page.waitForURL(`${gatewayUrl}/docs/guides/integrating`);
    expect(await page.locator('main.cmsg-guide h1').first().textContent()).toMatch(/^Integrating/);
    await page.locator('main.cmsg-guide a[href^="/docs/guides/broadcasts"]').first().click();
    expect(await page.locator('main.cmsg-guide h1').first().textContent()).toMatch(/^Broadcasts/);
    expect(misbehaviour).toEqual({ consoleErrors: [], pageErrors: [], cspViolations: [], requestsOffLoopback: [] });
  });
});

/** Types `phrase` into the search box and waits for the operations on screen to satisfy `shown`. */
async function searchFor(page: Page, phrase: string, shown: (ids: string[]) => boolean): Promise<string[]> {
  await page.locator('input.operation-filter-input').fill(phrase);
  return eventually(() => visibleOperationIds(page), shown, 10_000);
}

/** The operation ids of the operation blocks on screen (the filter hides the others). */
function visibleOperationIds(page: Page): Promise<string[]> {
  return page.locator('.opblock .opblock-summary-operation-id').allTextContents();
}
