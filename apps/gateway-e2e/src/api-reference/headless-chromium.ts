import { type Browser, type Page, chromium } from 'playwright-core';

/** Debian's chromium (tools/scripts/lib.sh ensure_chromium); CHROMIUM_PATH names another. */
export const CHROMIUM_PATH = process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium';

export function launchHeadlessChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    headless: true,
    timeout: 30_000,
    // Root (CI containers) cannot use Chromium's sandbox; /dev/shm is small in containers.
    args: [...(process.getuid?.() === 0 ? ['--no-sandbox'] : []), '--disable-dev-shm-usage', '--disable-background-networking', '--disable-component-update'],
  });
}

/** What a page did that it should not: console errors, uncaught errors, CSP violations, requests off loopback. */
export interface PageMisbehaviour {
  consoleErrors: string[];
  pageErrors: string[];
  cspViolations: string[];
  requestsOffLoopback: string[];
}

const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]']);

/**
 * Watches a page for the whole test: every request that would leave loopback is aborted and
 * recorded, and each `securitypolicyviolation` event is recorded from inside the page.
 */
export async function watchPage(page: Page): Promise<PageMisbehaviour> {
  const seen: PageMisbehaviour = { consoleErrors: [], pageErrors: [], cspViolations: [], requestsOffLoopback: [] };
  page.on('console', (message) => {
    if (message.type() === 'error') seen.consoleErrors.push(message.text());
  });
  page.on('pageerror', (error) => seen.pageErrors.push(error.message));
  await page.exposeFunction('__reportCspViolation', (violation: string) => seen.cspViolations.push(violation));
  // Runs in the page before its own scripts (a string: this project compiles without the DOM types).
  await page.addInitScript({
    content: `document.addEventListener('securitypolicyviolation', (event) => {
      window.__reportCspViolation(event.violatedDirective + ' blocked ' + (event.blockedURI || 'inline') + ' (' + event.sourceFile + ':' + event.lineNumber + ')');
    });`,
  });
  await page.route('**/*', async (route) => {
    const url = new URL(route.request().url());
    if (url.protocol === 'data:' || LOOPBACK_HOSTS.has(url.hostname)) {
      await route.continue();
      return;
    }
    seen.requestsOffLoopback.push(url.href);
    await route.abort('blockedbyclient');
  });
  return seen;
}
