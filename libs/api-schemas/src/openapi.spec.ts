import { ERROR_CATALOG } from '@cmsg/errors';
import { requiredScopeOf } from './api-token-scope';
import { buildOpenApiDocument } from './openapi';
import { openApiPathOf } from './public-endpoint';
import { PUBLIC_ENDPOINTS } from './public-endpoints';
import { EVENT_TYPES } from './event-envelope.schema';
import { UNSCOPED_ROUTES } from './unscoped-routes';

type Operation = {
  operationId: string;
  security: unknown[];
  parameters: { name: string; in: string; description?: string; schema?: Record<string, unknown> }[];
  requestBody?: unknown;
  responses: Record<string, { headers?: Record<string, unknown>; content?: Record<string, { schema: unknown }> }>;
};

const document = buildOpenApiDocument();
const operationOf = (method: string, path: string) =>
  (document.paths?.[`/v1/{slug}${openApiPathOf(path)}`] as Record<string, Operation> | undefined)?.[method];

describe('buildOpenApiDocument', () => {
  it('is OpenAPI 3.1 of interface version 0.2.0', () => {
    expect(document.openapi).toBe('3.1.0');
    expect(document.info.version).toBe('0.2.0');
  });

  it('writes every pattern as a plain JSON Schema pattern: no regex flags appended, no lookahead', () => {
    const patterns = [...JSON.stringify(document).matchAll(/"pattern":"((?:[^"\\]|\\.)*)"/g)].map((match) => JSON.parse(`"${match[1]}"`) as string);
    expect(patterns.length).toBeGreaterThan(10);
    for (const pattern of patterns) {
      expect({ pattern, flags: /\/[a-z]+$/.test(pattern) && !pattern.endsWith('\\/'), lookahead: pattern.includes('(?=') || pattern.includes('(?!') }).toEqual({ pattern, flags: false, lookahead: false });
      expect(() => new RegExp(pattern, 'u')).not.toThrow();
    }
  });

  it('documents every public endpoint and every route outside the business scope, and only those', () => {
    const documented = Object.entries(document.paths ?? {}).flatMap(([path, item]) => Object.keys(item as object).map((method) => `${method} ${path}`));
    expect(documented.sort()).toEqual(
      [
        ...PUBLIC_ENDPOINTS.map((endpoint) => `${endpoint.method} /v1/{slug}${openApiPathOf(endpoint.path)}`),
        ...UNSCOPED_ROUTES.map((route) => `${route.method} ${route.path}`),
      ].sort(),
    );
  });

  it.each([
    ['get', '/healthz'],
    ['get', '/readyz'],
    ['get', '/v1/openapi.json'],
    ['put', '/v1/uploads/{token}'],
    ['get', '/v1/downloads/{token}'],
    ['get', '/webhooks/chat'],
    ['post', '/webhooks/chat'],
  ])('has %s %s, without the bearer token', (method, path) => {
    const operation = (document.paths?.[path] as Record<string, Operation | undefined>)?.[method];
    expect(operation).toBeDefined();
    expect(operation!.security).toBeUndefined();
  });

  it('documents the chat webhook signature header and the upload body of any type', () => {
    const receive = (document.paths?.['/webhooks/chat'] as Record<string, Operation>)['post'];
    expect(receive.parameters).toEqual(expect.arrayContaining([expect.objectContaining({ name: 'X-Hub-Signature-256', in: 'header', required: true })]));
    expect(Object.keys(receive.responses)).toEqual(expect.arrayContaining(['200', '401', '413', '503']));
    const upload = (document.paths?.['/v1/uploads/{token}'] as Record<string, Operation & { requestBody: { content: object } }>)['put'];
    expect(Object.keys(upload.requestBody.content)).toEqual(['*/*']);
    expect(Object.keys(upload.responses)).toEqual(expect.arrayContaining(['204', '403', '404', '422']));
  });

  const everyOperation = [
    ...Object.entries(document.paths ?? {}).flatMap(([path, item]) => Object.entries(item as Record<string, any>).map(([method, operation]) => [`${method} ${path}`, operation] as const)),
    ...Object.entries(document.webhooks ?? {}).flatMap(([name, item]) => Object.entries(item as Record<string, any>).map(([method, operation]) => [`webhook ${name} ${method}`, operation] as const)),
  ];

  it('gives every operation and webhook a unique operationId and tags', () => {
    const ids = everyOperation.map(([, operation]) => operation.operationId);
    expect(ids.every((id) => typeof id === 'string' && id.length > 0)).toBe(true);
    expect(new Set(ids).size).toBe(ids.length);
    for (const [name, operation] of everyOperation) expect({ name, tags: operation.tags?.length > 0 }).toEqual({ name, tags: true });
  });

  it.each(everyOperation.map(([name, operation]) => [name, operation]))('%s: a request example for its body and query parameters', (_name, operation) => {
    if (operation.requestBody) {
      const media = Object.values(operation.requestBody.content as Record<string, { example?: unknown }>);
      expect(media.some((item) => item.example !== undefined)).toBe(true);
    }
    const query = ((operation.parameters ?? []) as { in: string; example?: unknown }[]).filter((parameter) => parameter.in === 'query');
    if (query.length > 0) expect(query.some((parameter) => parameter.example !== undefined)).toBe(true);
  });

  it.each(Object.entries(document.paths ?? {}).flatMap(([path, item]) => Object.entries(item as Record<string, Operation>).map(([method, operation]) => [`${method} ${path}`, operation] as const)))(
    '%s: documents its error responses as the error body',
    (_name, operation) => {
      const errors = Object.entries(operation.responses).filter(([status]) => Number(status) >= 400);
      expect(errors.length).toBeGreaterThan(0);
      for (const [, response] of errors) {
        const schema = Object.values(response.content ?? {})[0]?.schema as { $ref?: string } | undefined;
        expect(schema?.$ref).toMatch(/^#\/components\/schemas\/(ErrorBody|NotReady)$/);
      }
    },
  );

  it('documents each of the 15 event types under webhooks, with the Standard Webhooks headers', () => {
    expect(Object.keys(document.webhooks ?? {}).sort()).toEqual([...EVENT_TYPES].sort());
    for (const type of EVENT_TYPES) {
      const operation = (document.webhooks?.[type] as Record<string, any>)['post'];
      expect(operation.requestBody.content['application/json'].schema.$ref).toMatch(/^#\/components\/schemas\/\w+Event$/);
      expect(operation.parameters.map((parameter: { name: string }) => parameter.name)).toEqual(
        expect.arrayContaining(['webhook-id', 'webhook-timestamp', 'webhook-signature', 'X-Webhook-Signature']),
      );
    }
    expect(document.components?.schemas?.['EventEnvelope']).toMatchObject({ discriminator: { propertyName: 'type' } });
  });

  it.each([
    ['post', '/v1/{slug}/conversation/status'],
    ['post', '/v1/{slug}/conversation/notes'],
    ['post', '/v1/{slug}/conversation/pending'],
    ['post', '/v1/{slug}/conversation/resolve'],
    ['get', '/v1/{slug}/conversations'],
    ['get', '/v1/{slug}/contacts'],
    ['get', '/v1/{slug}/tester/contacts'],
    ['get', '/v1/{slug}/channels'],
  ])('has %s %s', (method, path) => {
    expect((document.paths?.[path] as Record<string, unknown>)[method]).toBeDefined();
  });

  it.each(PUBLIC_ENDPOINTS.map((endpoint) => [endpoint.operationId, endpoint] as const))('%s: bearer auth with its scope, slug, success and error responses', (_id, endpoint) => {
    const operation = operationOf(endpoint.method, endpoint.path) as Operation;
    expect(operation.security).toEqual([{ bearerAuth: [requiredScopeOf(endpoint)] }]);
    expect((operation.responses['403'] as { description: string }).description).toContain('TOKEN_SCOPE_INSUFFICIENT');
    expect(operation.parameters).toEqual(expect.arrayContaining([expect.objectContaining({ name: 'slug', in: 'path' })]));
    expect(operation.parameters).toEqual(expect.arrayContaining([expect.objectContaining({ name: 'X-Request-Id', in: 'header' })]));
    const success = operation.responses[String(endpoint.successStatus)];
    expect(Object.keys(success.headers ?? {})).toEqual(
      expect.arrayContaining(['X-Request-Id', 'X-Api-Version', 'X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset']),
    );
    for (const status of ['400', '401', '403', '429', '500']) {
      expect(operation.responses[status]?.content?.['application/json'].schema).toEqual({ $ref: '#/components/schemas/ErrorBody' });
    }
    expect(Object.keys(operation.responses['429'].headers ?? {})).toContain('Retry-After');
    for (const code of endpoint.errorCodes) {
      expect((operation.responses[String(ERROR_CATALOG[code].httpStatus)] as { description: string }).description).toContain(code);
    }
  });

  it('documents Idempotency-Key, the replay header and 413 on POST endpoints', () => {
    const notes = operationOf('post', '/conversation/notes') as Operation;
    expect(notes.parameters).toEqual(expect.arrayContaining([expect.objectContaining({ name: 'Idempotency-Key', in: 'header' })]));
    expect(Object.keys(notes.responses['201'].headers ?? {})).toContain('Idempotent-Replayed');
    expect(notes.responses['413']).toBeDefined();
    expect((notes.responses['409'] as { description: string }).description).toContain('IDEMPOTENCY_KEY_REUSED');
  });

  it('documents the list query parameters', () => {
    const list = operationOf('get', '/conversations') as Operation;
    expect(list.parameters.filter((parameter) => parameter.in === 'query').map((parameter) => parameter.name).sort()).toEqual(
      ['ai_employee', 'cursor', 'inbox_status', 'is_tester', 'limit', 'mailbox', 'order', 'tag', 'updated_since', 'window'],
    );
  });

  it('documents the repeatable tag filter as what the query parser accepts: a form-exploded array of uuids', () => {
    const list = operationOf('get', '/conversations') as Operation;
    const tag = list.parameters.find((parameter) => parameter.name === 'tag') as unknown as Record<string, unknown>;
    expect(tag).toMatchObject({ in: 'query', required: false, style: 'form', explode: true, schema: { type: 'array', items: { type: 'string', format: 'uuid' }, minItems: 1, maxItems: 20 } });
  });

  it('documents the timeline query parameters', () => {
    const timeline = operationOf('get', '/conversation/timeline') as Operation;
    const query = timeline.parameters.filter((parameter) => parameter.in === 'query') as unknown as { name: string; required: boolean }[];
    expect(query.map((parameter) => [parameter.name, parameter.required]).sort()).toEqual([
      ['conversation_uuid', true],
      ['cursor', false],
      ['kinds', false],
      ['limit', false],
      ['order', false],
    ]);
  });

  it.each(['/contacts', '/tester/contacts'])('documents the filters of %s with an example each', (path) => {
    const list = operationOf('get', path) as Operation;
    const query = list.parameters.filter((parameter) => parameter.in === 'query');
    expect(query.map((parameter) => parameter.name).sort()).toEqual(['chat_user_id', 'cursor', 'limit', 'phone', 'updated_since', 'username']);
    const byName = Object.fromEntries(query.map((parameter) => [parameter.name, parameter]));
    expect(byName['updated_since']!.schema).toMatchObject({ type: 'string', format: 'date-time' });
    for (const name of ['updated_since', 'phone', 'chat_user_id', 'username']) {
      expect(byName[name]!.schema?.['example']).toEqual(expect.any(String));
    }
    expect(byName['phone']!.description).toContain('digits');
  });

  it('declares the error body, the bearer scheme and the headers as components', () => {
    expect(document.components?.schemas?.['ErrorBody']).toMatchObject({ required: ['code', 'message'] });
    expect(document.components?.securitySchemes?.['bearerAuth']).toMatchObject({ type: 'http', scheme: 'bearer' });
    expect(Object.keys(document.components?.headers ?? {})).toEqual(
      expect.arrayContaining(['X-Request-Id', 'X-Api-Version', 'X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset', 'Retry-After', 'Idempotent-Replayed']),
    );
  });

  it('states the scope each operation needs and describes the three scopes', () => {
    const scopesOf = (method: string, path: string) => (operationOf(method, path) as Operation).security;
    expect(scopesOf('get', '/conversations')).toEqual([{ bearerAuth: ['conversations:read'] }]);
    expect(scopesOf('post', '/conversation/status')).toEqual([{ bearerAuth: ['conversations:read'] }]);
    expect(scopesOf('post', '/conversation/notes')).toEqual([{ bearerAuth: ['conversations:write'] }]);
    expect(scopesOf('delete', '/scheduled-messages/:uuid')).toEqual([{ bearerAuth: ['conversations:write'] }]);
    const scheme = document.components?.securitySchemes?.['bearerAuth'] as { description: string };
    for (const scope of ['conversations:read', 'conversations:write', 'webhooks:manage']) expect(scheme.description).toContain(`- ${scope}: `);
    expect(scheme.description).toContain('TOKEN_SCOPE_INSUFFICIENT');
  });

  it('keeps shared components non-nullable where a field references them as nullable', () => {
    expect(document.components?.schemas?.['NamedRef']).toMatchObject({ type: 'object' });
  });
});
