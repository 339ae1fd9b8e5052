import { createHash } from 'node:crypto';

/** JSON with object keys sorted at every depth, so key order never changes a fingerprint. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map((item) => canonicalJson(item ?? null)).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, member]) => member !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([key, member]) => `${JSON.stringify(key)}:${canonicalJson(member)}`).join(',')}}`;
  }
  return JSON.stringify(value ?? null);
}

/** SHA-256 of method, route and canonical request: what "the same request" means for a key. */
export function requestFingerprint(method: string, routePath: string, request: unknown): string {
  return createHash('sha256').update(`${method.toUpperCase()} ${routePath}\n${canonicalJson(request)}`).digest('hex');
}
