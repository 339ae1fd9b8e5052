import { randomUUID } from 'node:crypto';
import { buildOpenApiDocument } from '@cmsg/api-schemas';
import { generateApiToken } from '@cmsg/seed';
import { type TestBusiness, contactSeed, createTestBusiness, integrationStack } from '@cmsg/testing';
import { arbitraryFor, documentValidator } from '@cmsg/testing/fuzz';
import fc from 'fast-check';

/**
 * Property-based fuzzing of every documented operation against the real stack (issue 14): requests
 * generated from the OpenAPI document (path, query and body inside and around every rule, hostile
 * strings, other JSON types, bodies that are not JSON, wrong content types) must never answer a
 * 5xx, and every answer must be documented for that operation and match its schema. A fixed seed
 * and a bounded number of cases here; `npm run fuzz` runs many more (CMSG_FUZZ_RUNS).
 */
const SEED = Number(process.env['CMSG_FUZZ_SEED'] ?? 20261125);
const RUNS = Number(process.env['CMSG_FUZZ_RUNS'] ?? 300);
/** The product allows 60 requests a minute per token: the cases are spread over this many tokens. */
const TOKENS = Math.max(10, Math.ceil(RUNS / 40));

const document = buildOpenApiDocument();
const validator = documentValidator(document);

interface Parameter {
  name: string;
  in: 'path' | 'query' | 'header';
  required?: boolean;
  schema: object;
}

interface Operation {
  path: string;
  method: string;
  parameters: Parameter[];
  body: object | undefined;
}

const operations: Operation[] = Object.entries(document.paths as Record<string, Record<string, any>>).flatMap(([path, item]) =>
  Object.entries(item)
    .filter(([method]) => ['get', 'post', 'put', 'patch', 'delete'].includes(method))
    .map(([method, operation]) => ({
      path,
      method,
      parameters: (operation.parameters ?? []) as Parameter[],
      body: operation.requestBody?.content?.['application/json']?.schema as object | undefined,
    })),
);

type RawBody = { kind: 'json'; value: unknown } | { kind: 'text'; text: string; contentType: string } | { kind: 'none' };

const rawBodies: fc.Arbitrary<RawBody> = fc.constantFrom<RawBody>(
  { kind: 'text', text: '{"conversation": ', contentType: 'application/json' },
  { kind: 'text', text: 'not json', contentType: 'application/json' },
  { kind: 'text', text: '{"a":1}', contentType: 'text/plain' },
  { kind: 'text', text: '', contentType: 'application/json' },
  { kind: 'text', text: `${'['.repeat(64)}${']'.repeat(64)}`, contentType: 'application/json' },
  { kind: 'text', text: '{"__proto__": {"admin": true}, "constructor": {"prototype": {}}}', contentType: 'application/json' },
  // Limits: 64 levels of nesting in a field, 10,000 array items, a 1 MiB string.
  { kind: 'text', text: `{"conversation": ${'{"a":'.repeat(64)}1${'}'.repeat(64)}, "text": "hi"}`, contentType: 'application/json' },
  { kind: 'text', text: JSON.stringify({ conversation: { phone: '+5215512345678' }, actions: Array.from({ length: 10_000 }, () => ({ type: 'mark_resolved' })), tags: Array.from({ length: 10_000 }, () => ({ name: 'x' })) }), contentType: 'application/json' },
  { kind: 'text', text: JSON.stringify({ conversation: { phone: '+5215512345678' }, text: 'x'.repeat(1 << 20), note: 'x'.repeat(1 << 20) }), contentType: 'application/json' },
  { kind: 'text', text: JSON.stringify({ conversation: { phone: '+5215512345678', $where: '1', 'a.b': 1 }, text: 'hi' }), contentType: 'application/json; charset=latin1' },
  { kind: 'none' },
);

function requestArbitrary(operation: Operation, business: TestBusiness, otherSlug: string) {
  const contacts = business.seed.contacts ?? [];
  const propertyHints = {
    conversation: fc.constantFrom(
      ...contacts.flatMap((contact) => [{ uuid: contact.conversation!.uuid! }, { phone: contact.phone! }, { phone: contact.phone!, channel: business.channelKey }]),
    ),
  };
  const parameterValue = (parameter: Parameter) => {
    if (parameter.name === 'slug') return fc.oneof({ arbitrary: fc.constant(business.slug), weight: 8 }, { arbitrary: fc.constantFrom(otherSlug, 'no-such-business', '%00', 'ü'), weight: 1 });
    return arbitraryFor(parameter.schema, { resolve: validator.resolve, offSchemaRate: 0.15, propertyHints });
  };
  const pathParameters = operation.parameters.filter((parameter) => parameter.in === 'path');
  const queryParameters = operation.parameters.filter((parameter) => parameter.in === 'query');
  const body: fc.Arbitrary<RawBody> = operation.body
    ? fc.oneof(
        { arbitrary: arbitraryFor(operation.body, { resolve: validator.resolve, offSchemaRate: 0.1, propertyHints }).map((value): RawBody => ({ kind: 'json', value })), weight: 9 },
        { arbitrary: rawBodies, weight: 1 },
      )
    : fc.constant<RawBody>({ kind: 'none' });
  return fc.record({
    path: fc.tuple(...pathParameters.map((parameter) => fc.tuple(fc.constant(parameter.name), parameterValue(parameter)))),
    query: fc.tuple(...queryParameters.map((parameter) => fc.tuple(fc.constant(parameter.name), fc.boolean(), parameterValue(parameter)))),
    badQuery: fc.oneof({ arbitrary: fc.constant(''), weight: 12 }, { arbitrary: fc.constantFrom('limit=%E0%A4%A', 'limit=1&limit=2', 'cursor[$gt]=', '%'), weight: 1 }),
    body,
    token: fc.integer({ min: 0, max: TOKENS - 1 }),
  });
}

/** Percent-encodes a path value; a lone surrogate (no UTF-8 form) goes as the bytes a careless client would send. */
function encodePathValue(value: string): string {
  return Array.from(value, (character) => {
    try {
      return encodeURIComponent(character);
    } catch {
      return '%ED%A0%80';
    }
  }).join('');
}

function urlOf(operation: Operation, request: { path: [string, unknown][]; query: [string, boolean, unknown][]; badQuery: string }): string {
  let path = operation.path;
  for (const [name, value] of request.path) path = path.replace(`{${name}}`, encodePathValue(typeof value === 'string' ? value : JSON.stringify(value)));
  const query = new URLSearchParams();
  for (const [name, present, value] of request.query) {
    if (!present) continue;
    for (const item of Array.isArray(value) ? value : [value]) query.append(name, typeof item === 'string' ? item : JSON.stringify(item));
  }
  const search = [query.toString(), request.badQuery].filter(Boolean).join('&');
  return `${integrationStack().gatewayUrls[0]}${path}${search ? `?${search}` : ''}`;
}

describe('fuzzing every documented operation (real stack)', () => {
  let business: TestBusiness;
  let other: TestBusiness;
  const tokens: string[] = [];
  /** Answers by operation and status, printed at the end: how deep the cases went. */
  const answers = new Map<string, Map<number, number>>();

  beforeAll(async () => {
    for (let index = 0; index < TOKENS; index += 1) tokens.push(generateApiToken());
    business = await createTestBusiness((seed) => {
      seed.api_tokens = tokens.map((token) => ({ uuid: randomUUID(), token }));
      seed.contacts = [contactSeed(seed, { first_name: 'Ana' }), contactSeed(seed, { first_name: 'Beto' })];
    });
    other = await createTestBusiness();
  });

  afterAll(() => {
    const lines = [...answers].map(([operation, statuses]) => `${operation.padEnd(52)} ${[...statuses].sort(([a], [b]) => a - b).map(([status, count]) => `${status}×${count}`).join(' ')}`);
    console.log(`fuzz answers (seed ${SEED}, ${RUNS} cases):\n${lines.join('\n')}`);
  });

  it('covers every documented operation', () => {
    expect(operations.length).toBeGreaterThanOrEqual(20);
  });

  it.each(operations.map((operation) => [`${operation.method.toUpperCase()} ${operation.path}`, operation] as const))(
    '%s: no 5xx, every answer documented',
    async (_name, operation) => {
      const runs = Math.max(5, Math.ceil(RUNS / operations.length));
      await fc.assert(
        fc.asyncProperty(requestArbitrary(operation, business, other.slug), async (request) => {
          const url = urlOf(operation, request);
          const headers: Record<string, string> = { authorization: `Bearer ${tokens[request.token]}` };
          let body: string | undefined;
          if (request.body.kind === 'json') {
            headers['content-type'] = 'application/json';
            body = JSON.stringify(request.body.value);
          } else if (request.body.kind === 'text') {
            headers['content-type'] = request.body.contentType;
            body = request.body.text;
          }
          const response = await fetch(url, { method: operation.method.toUpperCase(), headers, body, signal: AbortSignal.timeout(30_000) });
          const text = await response.text();
          const tally = answers.get(_name) ?? new Map<number, number>();
          tally.set(response.status, (tally.get(response.status) ?? 0) + 1);
          answers.set(_name, tally);
          const described = `${operation.method.toUpperCase()} ${url} ${body ?? ''} -> ${response.status} ${text.slice(0, 500)}`;
          if (response.status >= 500) throw new Error(`5xx: ${described}`);
          const contentType = response.headers.get('content-type') ?? '';
          if (!contentType.includes('application/json')) return;
          const documented = validator.responseBody(operation.path, operation.method, String(response.status));
          if (!documented) throw new Error(`undocumented status: ${described}`);
          if (!documented.isValid(JSON.parse(text))) throw new Error(`answer does not match the documented schema (${documented.errors()}): ${described}`);
        }),
        { seed: SEED, numRuns: runs, endOnFailure: true },
      );
    },
    Math.max(120_000, RUNS * 500),
  );
});
