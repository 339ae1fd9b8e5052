import type { Span } from '@opentelemetry/api';
import type { ClientRequest, IncomingMessage } from 'node:http';
import { redactIncomingPathHook } from './incoming-path-redaction';

function recordingSpan() {
  const attributes: Record<string, unknown> = {};
  const span = { setAttribute: (key: string, value: unknown) => ((attributes[key] = value), span) } as unknown as Span;
  return { span, attributes };
}

const redactUploads = (path: string) => (path.startsWith('/v1/uploads/') ? '/v1/uploads/[redacted]' : path);

describe('redactIncomingPathHook', () => {
  it('overwrites the path and url attributes of an incoming request whose path carries a credential', () => {
    const { span, attributes } = recordingSpan();
    const request = { url: '/v1/uploads/secret-token?x=1', headers: { host: '127.0.0.1:8080' } } as unknown as IncomingMessage;
    redactIncomingPathHook(redactUploads)(span, request);
    expect(attributes).toEqual({
      'http.target': '/v1/uploads/[redacted]',
      'url.path': '/v1/uploads/[redacted]',
      'http.url': 'http://127.0.0.1:8080/v1/uploads/[redacted]',
      'url.full': 'http://127.0.0.1:8080/v1/uploads/[redacted]',
      'url.query': '',
    });
    expect(JSON.stringify(attributes)).not.toContain('secret-token');
  });

  it('leaves other paths and outgoing requests alone', () => {
    const { span, attributes } = recordingSpan();
    redactIncomingPathHook(redactUploads)(span, { url: '/v1/acme/conversations', headers: {} } as unknown as IncomingMessage);
    redactIncomingPathHook(redactUploads)(span, { path: '/v1/uploads/abc', setHeader: () => undefined } as unknown as ClientRequest);
    expect(attributes).toEqual({});
  });
});
