import type { IncomingMessage, ServerResponse } from 'node:http';
import { parseJson, sendJson } from './fake-http';
import type { FakeRuleBase, RuleBook } from './fake-rules';

export const CONTROL_PREFIX = '/_fake/';

/** What the shared /_fake/ routes need from a fake. */
export interface ControlTarget<Rule extends FakeRuleBase> {
  requestsMatching(query: URLSearchParams): unknown[];
  rules: RuleBook<Rule>;
  reset(): void;
}

/**
 * The test-control endpoints every fake serves, so tests in other processes can steer it:
 * GET requests (query filters), POST reset, GET/POST/DELETE rules, DELETE rules/<id>.
 * Returns false when the path is not one of them.
 */
export function handleControlRequest<Rule extends FakeRuleBase>(
  target: ControlTarget<Rule>,
  req: IncomingMessage,
  res: ServerResponse,
  body: Buffer,
  url: URL,
): boolean {
  const route = `${req.method ?? 'GET'} ${url.pathname.slice(CONTROL_PREFIX.length)}`;
  if (route === 'GET requests') {
    sendJson(res, 200, { requests: target.requestsMatching(url.searchParams) });
  } else if (route === 'POST reset') {
    target.reset();
    res.writeHead(204).end();
  } else if (route === 'GET rules') {
    sendJson(res, 200, { rules: target.rules.list() });
  } else if (route === 'POST rules') {
    const input = parseJson(body);
    const rules = Array.isArray(input) ? input : [input];
    if (rules.some((rule) => typeof rule !== 'object' || rule === null)) {
      sendJson(res, 400, { error: 'body must be a rule object or an array of them' });
    } else {
      sendJson(res, 201, { ids: rules.map((rule) => target.rules.add(rule as Rule)) });
    }
  } else if (route === 'DELETE rules') {
    target.rules.clear();
    res.writeHead(204).end();
  } else if (req.method === 'DELETE' && url.pathname.startsWith(`${CONTROL_PREFIX}rules/`)) {
    const found = target.rules.remove(decodeURIComponent(url.pathname.slice(`${CONTROL_PREFIX}rules/`.length)));
    res.writeHead(found ? 204 : 404).end();
  } else {
    return false;
  }
  return true;
}

/** `since` filter of GET /_fake/requests: records with a larger sequence number only. */
export function sinceOf(query: URLSearchParams): number {
  const since = Number(query.get('since'));
  return Number.isFinite(since) ? since : 0;
}
