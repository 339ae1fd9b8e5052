import { type LookupAddress, lookup as dnsLookup } from 'node:dns';
import { isIP } from 'node:net';
import { isPublicAddress } from './public-address';

/** A URL no delivery may go to, with the reason in words an API client can act on. */
export class WebhookUrlRefusedError extends Error {
  constructor(reason: string) {
    super(reason);
    this.name = 'WebhookUrlRefusedError';
  }
}

export interface WebhookUrlPolicy {
  /** WEBHOOK_ALLOW_PRIVATE_URLS: http and loopback/private hosts are let through, but a public host still needs https. */
  allowPrivate: boolean;
  /** Resolves a host name to every address (default: the system resolver, as connections use). */
  resolve?: (host: string) => Promise<LookupAddress[]>;
}

export const MAX_WEBHOOK_URL_LENGTH = 2048;
const DNS_TIMEOUT_MS = 5_000;

/** The system resolver (getaddrinfo: /etc/hosts included), every address, bounded in time. */
export function resolveAllAddresses(host: string): Promise<LookupAddress[]> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new WebhookUrlRefusedError(`the host ${host} did not resolve within ${DNS_TIMEOUT_MS / 1000} s`)), DNS_TIMEOUT_MS);
    dnsLookup(host, { all: true, verbatim: true }, (error, addresses) => {
      clearTimeout(timer);
      if (error) reject(new WebhookUrlRefusedError(`the host ${host} does not resolve (${error.code ?? error.message})`));
      else resolve(addresses);
    });
  });
}

/** The URL parsed, or a refusal for what no policy allows (syntax, scheme, credentials). */
export function parseWebhookUrl(raw: string, policy: Pick<WebhookUrlPolicy, 'allowPrivate'>): URL {
  if (raw.length > MAX_WEBHOOK_URL_LENGTH) throw new WebhookUrlRefusedError(`the URL is longer than ${MAX_WEBHOOK_URL_LENGTH} characters`);
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new WebhookUrlRefusedError('the URL is not an absolute URL');
  }
  if (url.protocol !== 'https:' && !(policy.allowPrivate && url.protocol === 'http:')) {
    throw new WebhookUrlRefusedError(policy.allowPrivate ? 'the URL must use https or http' : 'the URL must use https');
  }
  if (url.username || url.password) throw new WebhookUrlRefusedError('the URL must not carry credentials');
  if (!url.hostname) throw new WebhookUrlRefusedError('the URL has no host');
  return url;
}

/** The host as a resolver or an IP parser takes it (`[::1]` -> `::1`). */
export function hostOf(url: URL): string {
  return url.hostname.startsWith('[') && url.hostname.endsWith(']') ? url.hostname.slice(1, -1) : url.hostname;
}

/**
 * Refuses addresses the URL may not reach: without allowPrivate, every address must be public;
 * with it, an http URL may only reach non-public ones (a public host still needs https).
 */
export function checkAddresses(url: URL, addresses: readonly string[], policy: Pick<WebhookUrlPolicy, 'allowPrivate'>): void {
  if (addresses.length === 0) throw new WebhookUrlRefusedError(`the host ${hostOf(url)} has no address`);
  const host = hostOf(url);
  for (const address of addresses) {
    const isPublic = isPublicAddress(address);
    if (!policy.allowPrivate && !isPublic) {
      throw new WebhookUrlRefusedError(`the host ${host} resolves to ${address}, a loopback, private, link-local or otherwise non-public address`);
    }
    if (policy.allowPrivate && url.protocol === 'http:' && isPublic) {
      throw new WebhookUrlRefusedError(`the host ${host} is public (${address}): it needs https`);
    }
  }
}

/**
 * CONTRACT 9.2's URL rules, on create and update: https, and a host whose every address is public
 * (WEBHOOK_ALLOW_PRIVATE_URLS relaxes it as checkAddresses says). Answers the parsed URL.
 */
export async function checkWebhookUrl(raw: string, policy: WebhookUrlPolicy): Promise<URL> {
  const url = parseWebhookUrl(raw, policy);
  const host = hostOf(url);
  const addresses = isIP(host) ? [host] : (await (policy.resolve ?? resolveAllAddresses)(host)).map((entry) => entry.address);
  checkAddresses(url, addresses, policy);
  return url;
}
