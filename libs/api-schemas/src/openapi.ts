import { DOCUMENT_DESCRIPTION } from './document-description';
import { OpenAPIRegistry, OpenApiGeneratorV31, type ResponseConfig, type RouteConfig } from '@asteasolutions/zod-to-openapi';
import { ERROR_CATALOG, type ErrorCode } from '@cmsg/errors';
import { API_TOKEN_SCOPES, API_TOKEN_SCOPE_DESCRIPTIONS, requiredScopeOf } from './api-token-scope';
import { API_VERSION } from './api-version';
import { ErrorBodySchema } from './error-body.schema';
import { IdempotencyKeyHeaderSchema, PUBLIC_HEADERS, RequestIdHeaderSchema } from './headers.schema';
import { MAX_JSON_BODY_BYTES } from './limits';
import { type PublicEndpoint, openApiPathOf } from './public-endpoint';
import { PUBLIC_ENDPOINTS } from './public-endpoints';
import { registerEventWebhooks } from './event-webhooks.openapi';
import { UNSCOPED_ROUTES } from './unscoped-routes';
import { z } from './zod';

export type OpenApiDocument = ReturnType<OpenApiGeneratorV31['generateDocument']>;

export interface OpenApiDocumentOptions {
  /** Defaults to "/": every path already starts with /v1. */
  serverUrl?: string;
}

/** Codes any business endpoint can answer, whatever it does (CONTRACT 1 pipeline). */
const PIPELINE_ERROR_CODES: readonly ErrorCode[] = [
  'INVALID_REQUEST',
  'INVALID_API_TOKEN',
  'TOKEN_BUSINESS_MISMATCH',
  'TOKEN_SCOPE_INSUFFICIENT',
  'RATE_LIMIT_EXCEEDED',
  'UNKNOWN_ERROR',
  'SERVICE_UNAVAILABLE',
];
const IDEMPOTENCY_ERROR_CODES: readonly ErrorCode[] = ['IDEMPOTENCY_KEY_REUSED', 'IDEMPOTENCY_REQUEST_IN_PROGRESS'];

const BEARER_SCHEME = 'bearerAuth';

const headerRef = (name: string) => ({ $ref: `#/components/headers/${name}` });

function registerSharedComponents(registry: OpenAPIRegistry): void {
  registry.register('ErrorBody', ErrorBodySchema);
  registry.registerComponent('securitySchemes', BEARER_SCHEME, {
    type: 'http',
    scheme: 'bearer',
    bearerFormat: 'cmsg_ followed by 64 lowercase hex characters',
    description: [
      'API token issued by the business (Settings, API Token). A token holds one or more scopes (all three unless issued with fewer);',
      "each operation's security requirement names the one scope the gateway requires for it, and a token without it gets 403 TOKEN_SCOPE_INSUFFICIENT:",
      ...API_TOKEN_SCOPES.map((scope) => `- ${scope}: ${API_TOKEN_SCOPE_DESCRIPTIONS[scope]}`),
    ].join('\n'),
  });
  const integer = { type: 'integer' as const, minimum: 0 };
  const headers: Record<string, { description: string; schema: Record<string, unknown> }> = {
    [PUBLIC_HEADERS.requestId]: { description: 'The request id (UUID): the client one when valid, otherwise generated.', schema: { type: 'string', format: 'uuid' } },
    [PUBLIC_HEADERS.apiVersion]: { description: 'Version of this interface.', schema: { type: 'string', const: API_VERSION } },
    [PUBLIC_HEADERS.rateLimitLimit]: { description: 'Requests allowed per minute for this token.', schema: integer },
    [PUBLIC_HEADERS.rateLimitRemaining]: { description: 'Requests left in the current window.', schema: integer },
    [PUBLIC_HEADERS.rateLimitReset]: { description: 'Seconds until a request slot frees.', schema: integer },
    [PUBLIC_HEADERS.retryAfter]: { description: 'Seconds to wait before retrying.', schema: { type: 'integer', minimum: 1 } },
    [PUBLIC_HEADERS.idempotentReplayed]: {
      description: 'Present when this is the stored response of an earlier request with the same Idempotency-Key.',
      schema: { type: 'string', enum: ['true'] },
    },
  };
  for (const [name, header] of Object.entries(headers)) registry.registerComponent('headers', name, header);
}

function responseHeaders(options: { rateLimited: boolean; retryAfter?: boolean; replayable?: boolean }) {
  const names: string[] = [PUBLIC_HEADERS.requestId, PUBLIC_HEADERS.apiVersion];
  if (options.rateLimited) names.push(PUBLIC_HEADERS.rateLimitLimit, PUBLIC_HEADERS.rateLimitRemaining, PUBLIC_HEADERS.rateLimitReset);
  if (options.retryAfter) names.push(PUBLIC_HEADERS.retryAfter);
  if (options.replayable) names.push(PUBLIC_HEADERS.idempotentReplayed);
  return Object.fromEntries(names.map((name) => [name, headerRef(name)]));
}

function errorResponse(codes: readonly ErrorCode[], headers: ResponseConfig['headers'], note = ''): ResponseConfig {
  return {
    description: `${note}Codes: ${codes.join(', ')}.`,
    headers,
    content: { 'application/json': { schema: ErrorBodySchema } },
  };
}

/** Error responses grouped by HTTP status, as the catalog assigns them. */
function errorResponses(endpoint: PublicEndpoint): Record<string, ResponseConfig> {
  const isPost = endpoint.method === 'post';
  const codes = new Set<ErrorCode>([...PIPELINE_ERROR_CODES, ...(isPost ? IDEMPOTENCY_ERROR_CODES : []), ...endpoint.errorCodes]);
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of codes) {
    const status = ERROR_CATALOG[code].httpStatus;
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  const responses: Record<string, ResponseConfig> = {};
  for (const [status, statusCodes] of [...byStatus].sort(([a], [b]) => a - b)) {
    const authenticated = status !== 401 && status !== 403;
    const retryAfter = status === 429 || (status === 409 && statusCodes.includes('IDEMPOTENCY_REQUEST_IN_PROGRESS'));
    responses[String(status)] = errorResponse(statusCodes, responseHeaders({ rateLimited: authenticated, retryAfter }));
  }
  if (endpoint.schemas.body) {
    // Keeps the endpoint's own 413 codes (STORAGE_QUOTA_EXCEEDED) beside the body-size one.
    const codes413 = [...new Set<ErrorCode>(['INVALID_REQUEST', ...(byStatus.get(413) ?? [])])];
    responses['413'] = errorResponse(codes413, responseHeaders({ rateLimited: true }), `JSON body larger than ${MAX_JSON_BODY_BYTES} bytes (INVALID_REQUEST). `);
  }
  return responses;
}

function routeConfigOf(endpoint: PublicEndpoint): RouteConfig {
  const { schemas } = endpoint;
  const slugParams = z.object({
    slug: z.string().min(1).openapi({ param: { description: "The business slug (case-insensitive); must be the token's business." } }),
  });
  const requestHeaders = z.object({
    [PUBLIC_HEADERS.requestId]: RequestIdHeaderSchema.optional(),
    ...(endpoint.method === 'post' ? { [PUBLIC_HEADERS.idempotencyKey]: IdempotencyKeyHeaderSchema.optional() } : {}),
  });
  const successResponse: ResponseConfig = {
    description: endpoint.successDescription,
    headers: responseHeaders({ rateLimited: true, replayable: endpoint.method === 'post' }),
    ...(endpoint.successStatus === 204 ? {} : { content: { 'application/json': { schema: schemas.response } } }),
  };
  return {
    method: endpoint.method,
    path: `/v1/{slug}${openApiPathOf(endpoint.path)}`,
    operationId: endpoint.operationId,
    summary: endpoint.summary,
    description: endpoint.description,
    tags: [endpoint.tag],
    // OpenAPI 3.1 lets a bearer requirement list the roles it needs: the scope the gateway enforces.
    security: [{ [BEARER_SCHEME]: [requiredScopeOf(endpoint)] }],
    request: {
      params: schemas.params ? slugParams.extend(schemas.params.shape) : slugParams,
      query: schemas.query,
      headers: requestHeaders,
      body: schemas.body ? { required: true, content: { 'application/json': { schema: schemas.body, example: endpoint.requestExample?.body } } } : undefined,
    },
    responses: {
      [String(endpoint.successStatus)]: successResponse,
      ...(endpoint.otherSuccess ? { [String(endpoint.otherSuccess.status)]: { ...successResponse, description: endpoint.otherSuccess.description } } : {}),
      ...errorResponses(endpoint),
    },
  };
}

/** The OpenAPI 3.1 document of every public endpoint, built from the schemas that validate requests. */
export function buildOpenApiDocument(options: OpenApiDocumentOptions = {}): OpenApiDocument {
  const registry = new OpenAPIRegistry();
  registerSharedComponents(registry);
  for (const endpoint of PUBLIC_ENDPOINTS) registry.registerPath(routeConfigOf(endpoint));
  for (const route of UNSCOPED_ROUTES) registry.registerPath(route);
  registerEventWebhooks(registry);
  const document = new OpenApiGeneratorV31(registry.definitions).generateDocument({
    openapi: '3.1.0',
    info: {
      title: 'Conversation Messaging Public API',
      version: API_VERSION,
      description: DOCUMENT_DESCRIPTION,
    },
    servers: [{ url: options.serverUrl ?? '/' }],
  });
  addQueryExamples(document);
  return document;
}

/** Each endpoint's example query values, on its documented query parameters. */
function addQueryExamples(document: OpenApiDocument): void {
  for (const endpoint of PUBLIC_ENDPOINTS) {
    const query = endpoint.requestExample?.query;
    if (!query) continue;
    const operation = document.paths?.[`/v1/{slug}${openApiPathOf(endpoint.path)}`]?.[endpoint.method];
    for (const parameter of operation?.parameters ?? []) {
      if ('in' in parameter && parameter.in === 'query' && parameter.name in query) parameter.example = typedQueryValue(query[parameter.name]!, parameter.schema);
    }
  }
}

/** A query value as the parameter's schema types it (`limit: "20"` travels as text, is an integer). */
function typedQueryValue(value: string | readonly string[], schema: unknown): unknown {
  const type = (schema as { type?: unknown } | undefined)?.type;
  if (typeof value !== 'string') return value;
  if (type === 'integer' || type === 'number') return Number(value);
  if (type === 'boolean') return value === 'true';
  return value;
}
