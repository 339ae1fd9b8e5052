import createClient, { type Client, type ClientOptions } from 'openapi-fetch';
import type { BusinessPaths, GatewayPaths } from './business-paths';

export interface CmsgClientOptions {
  /** The gateway's address, e.g. `http://localhost:8080` (`{base_url}` with its `/v1` is accepted too). */
  baseUrl: string;
  /** The business the token belongs to. */
  slug: string;
  /** The API token: `cmsg_` followed by 64 hex characters. */
  token: string;
  /** Another fetch (tests, proxies, retries). */
  fetch?: ClientOptions['fetch'];
  /** Headers sent with every request, besides Authorization. */
  headers?: Record<string, string>;
}

/** openapi-fetch's client over the business endpoints (paths below `/v1/{slug}`), plus the routes outside it. */
export type CmsgClient = Client<BusinessPaths> & {
  readonly slug: string;
  /** Health, readiness and the OpenAPI document, by their full path (no token needed). */
  readonly gateway: Client<GatewayPaths>;
};

/** `http://host:8080/`, `http://host:8080/v1` and `http://host:8080/v1/` all name the gateway at `http://host:8080`. */
export function gatewayOrigin(baseUrl: string): string {
  return baseUrl.replace(/\/+$/, '').replace(/\/v1$/, '');
}

export function createCmsgClient(options: CmsgClientOptions): CmsgClient {
  const origin = gatewayOrigin(options.baseUrl);
  const common = { fetch: options.fetch, headers: { ...options.headers, Authorization: `Bearer ${options.token}` } };
  const business = createClient<BusinessPaths>({ ...common, baseUrl: `${origin}/v1/${encodeURIComponent(options.slug)}` });
  const gateway = createClient<GatewayPaths>({ ...common, baseUrl: origin });
  return Object.assign(business, { slug: options.slug, gateway });
}
