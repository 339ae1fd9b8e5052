import type { Span } from '@opentelemetry/api';
import type { ClientRequest, IncomingMessage } from 'node:http';

/** The span attributes (old and stable HTTP semantic conventions) that carry an incoming request's path. */
const PATH_ATTRIBUTES = ['http.target', 'url.path'] as const;
const URL_ATTRIBUTES = ['http.url', 'url.full'] as const;

/**
 * An HttpInstrumentation request hook that rewrites the path of incoming requests with `redact`
 * before the span is exported: a path can carry a credential (a signed file URL's token).
 * The query string is dropped from the rewritten attributes.
 */
export function redactIncomingPathHook(redact: (path: string) => string) {
  return (span: Span, request: ClientRequest | IncomingMessage): void => {
    if (!isIncoming(request) || request.url === undefined) return;
    const [path = '/'] = request.url.split('?');
    const redacted = redact(path);
    if (redacted === path) return;
    for (const attribute of PATH_ATTRIBUTES) span.setAttribute(attribute, redacted);
    const host = request.headers.host ?? 'localhost';
    for (const attribute of URL_ATTRIBUTES) span.setAttribute(attribute, `http://${host}${redacted}`);
    span.setAttribute('url.query', '');
  };
}

function isIncoming(request: ClientRequest | IncomingMessage): request is IncomingMessage {
  // A server's request has headers as a plain object and no setHeader (a ClientRequest has both ways).
  return typeof (request as Partial<ClientRequest>).setHeader !== 'function';
}
