import http from 'node:http';
import https from 'node:https';
import type { LookupAddress } from 'node:dns';
import { type LookupFunction, isIP } from 'node:net';
import { type WebhookUrlPolicy, checkAddresses, hostOf, parseWebhookUrl, resolveAllAddresses } from '../url-policy/webhook-url-policy';

/** How an attempt reaches the receiver. Resolves with the HTTP status once it arrives. */
export interface WebhookTransport {
  post(url: string, body: string, headers: Record<string, string>, timeoutMs: number): Promise<number>;
}

/**
 * POSTs over node:http(s) with keep-alive, redirects not followed (a 3xx is a failed attempt).
 * The URL rules are checked again at every connection, against DNS rebinding: the socket's own
 * lookup resolves the host, refuses the connection unless every address passes, and connects to
 * those same addresses, so nothing can change between the check and the connect. An IP literal
 * is checked before the request (sockets do not look literals up).
 */
export class HttpWebhookTransport implements WebhookTransport {
  private readonly agents = { 'http:': new http.Agent({ keepAlive: true, scheduling: 'lifo' }), 'https:': new https.Agent({ keepAlive: true, scheduling: 'lifo' }) };

  constructor(private readonly policy: WebhookUrlPolicy) {}

  post(rawUrl: string, body: string, headers: Record<string, string>, timeoutMs: number): Promise<number> {
    const url = parseWebhookUrl(rawUrl, this.policy);
    const host = hostOf(url);
    if (isIP(host)) checkAddresses(url, [host], this.policy);
    const client = url.protocol === 'https:' ? https : http;
    return new Promise<number>((resolve, reject) => {
      const request = client.request(
        url,
        {
          method: 'POST',
          headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) },
          agent: this.agents[url.protocol as 'http:' | 'https:'],
          lookup: this.checkedLookup(url),
          signal: AbortSignal.timeout(timeoutMs),
        },
        (response) => {
          // The status decides; the body is drained so the connection can be reused.
          response.on('error', () => undefined);
          response.resume();
          resolve(response.statusCode ?? 0);
        },
      );
      request.on('error', reject);
      request.end(body);
    });
  }

  destroy(): void {
    for (const agent of Object.values(this.agents)) agent.destroy();
  }

  private checkedLookup(url: URL): LookupFunction {
    const resolve = this.policy.resolve ?? resolveAllAddresses;
    return (hostname, options, callback) => {
      resolve(hostname).then(
        (all) => {
          try {
            checkAddresses(url, all.map((entry) => entry.address), this.policy);
          } catch (error) {
            callback(error as NodeJS.ErrnoException, '', 0);
            return;
          }
          const wanted = options.family === 4 || options.family === 6 ? all.filter((entry) => entry.family === options.family) : all;
          const addresses: LookupAddress[] = wanted.length > 0 ? wanted : all;
          if (options.all) (callback as unknown as (error: null, addresses: LookupAddress[]) => void)(null, addresses);
          else callback(null, addresses[0]!.address, addresses[0]!.family);
        },
        (error: unknown) => callback(error as NodeJS.ErrnoException, '', 0),
      );
    };
  }
}
