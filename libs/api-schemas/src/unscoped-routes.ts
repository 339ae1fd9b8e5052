import type { ResponseConfig, RouteConfig } from '@asteasolutions/zod-to-openapi';
import type { ErrorCode } from '@cmsg/errors';
import { ErrorBodySchema } from './error-body.schema';
import { FILE_TRANSFER_PATHS } from './files.schema';
import { PUBLIC_HEADERS, RequestIdHeaderSchema } from './headers.schema';
import { MAX_CHAT_WEBHOOK_BODY_BYTES } from './limits';
import { z } from './zod';

/** The gateway's paths outside the business scope, besides the signed file URLs (FILE_TRANSFER_PATHS). */
export const UNSCOPED_PATHS = {
  healthz: '/healthz',
  readyz: '/readyz',
  openApiDocument: '/v1/openapi.json',
  /** CONTRACT 7: the chat platform's webhook (GET verify challenge, POST deliveries). */
  chatWebhook: '/webhooks/chat',
  /** The API reference page (Swagger UI on this document), its assets and the Markdown guides. */
  apiReference: '/docs',
  apiReferenceAssets: '/docs/assets',
  guides: '/docs/guides',
} as const;

export const CHAT_WEBHOOK_SIGNATURE_HEADER = 'X-Hub-Signature-256';

const OPERATIONAL_TAG = 'Operations';
const FILES_TAG = 'Files';
const CHAT_PLATFORM_TAG = 'Chat platform';
const REFERENCE_TAG = 'API reference';

export const HealthResponseSchema = z.object({ status: z.literal('ok') }).openapi('Health');

const ReadinessChecksSchema = z
  .record(z.string(), z.enum(['ok', 'failing']))
  .openapi({ description: 'Each dependency (redis, kafka, every gRPC upstream, mongodb through the conversations service) and its state.' });

export const ReadinessResponseSchema = z.object({ status: z.literal('ready'), checks: ReadinessChecksSchema }).openapi('Readiness');

export const NotReadyResponseSchema = z
  .object({ code: z.literal('SERVICE_UNAVAILABLE'), message: z.string(), checks: ReadinessChecksSchema })
  .openapi('NotReady', { description: 'The error body, with the state of each dependency.' });

export const ChatWebhookAcknowledgementSchema = z
  .object({ received: z.number().int().min(0).openapi({ description: 'Messages and statuses queued; 0 for a signed payload that is not understood (acknowledged and dropped).' }) })
  .openapi('ChatWebhookAcknowledgement');

const headerRef = (name: string) => ({ $ref: `#/components/headers/${name}` });
const RESPONSE_HEADERS = { [PUBLIC_HEADERS.requestId]: headerRef(PUBLIC_HEADERS.requestId), [PUBLIC_HEADERS.apiVersion]: headerRef(PUBLIC_HEADERS.apiVersion) };
const REQUEST_HEADERS = z.object({ [PUBLIC_HEADERS.requestId]: RequestIdHeaderSchema.optional() });

/** Error responses of a route outside the pipeline: status -> the codes it answers there, and why. */
function errorResponses(byStatus: Record<number, { codes: readonly ErrorCode[]; why?: string }>): Record<string, ResponseConfig> {
  return Object.fromEntries(
    Object.entries(byStatus).map(([status, { codes, why }]) => [
      status,
      { description: `${why ? `${why} ` : ''}Codes: ${codes.join(', ')}.`, headers: RESPONSE_HEADERS, content: { 'application/json': { schema: ErrorBodySchema } } },
    ]),
  );
}

const UNEXPECTED = { 500: { codes: ['UNKNOWN_ERROR'] as const } };

const tokenParams = z.object({
  token: z.string().min(1).openapi({ param: { description: 'The signed token of the URL, exactly as the API handed it out.' } }),
});

const PAGE_SECURITY_HEADERS = {
  'Content-Security-Policy': { description: "Everything from this gateway only: no inline script, no eval, no framing, requests only to this origin.", schema: { type: 'string' } },
} as const;
const HTML_PAGE = { 'text/html': { schema: { type: 'string' } } } as const;

const assetParams = z.object({
  asset: z.string().openapi({
    param: { description: 'One of the files the page loads: swagger-ui-bundle.js, swagger-ui.css, api-reference.js, api-reference.css, favicon-32x32.png, favicon-16x16.png. Any other name is 404.' },
    example: 'api-reference.js',
  }),
});
const guideParams = z.object({
  guide: z.string().openapi({
    param: { description: 'The name of a guide: its Markdown file in docs/ without `.md`, as listed by GET /docs/guides. Any other name is 404.' },
    example: 'integrating',
  }),
});

/** GET of an HTML page of the reference (tag "API reference"); `notFound` when a path parameter can name nothing. */
function htmlPageRoute(page: { path: string; operationId: string; summary: string; description?: string; params?: z.ZodObject; notFound?: string }): RouteConfig {
  return {
    method: 'get',
    path: page.path,
    operationId: page.operationId,
    summary: page.summary,
    ...(page.description ? { description: page.description } : {}),
    tags: [REFERENCE_TAG],
    request: page.params ? { params: page.params, headers: REQUEST_HEADERS } : { headers: REQUEST_HEADERS },
    responses: {
      200: { description: 'The page.', headers: { ...RESPONSE_HEADERS, ...PAGE_SECURITY_HEADERS }, content: HTML_PAGE },
      ...errorResponses(page.notFound ? { 404: { codes: ['NOT_FOUND'], why: page.notFound }, ...UNEXPECTED } : UNEXPECTED),
    },
  };
}

const SIGNED_URL_REFUSED = { codes: ['INVALID_REQUEST'] as const, why: 'The URL is not one the API signed, is for the other direction, or has expired.' };
const MALFORMED_PATH = { codes: ['INVALID_REQUEST'] as const, why: 'The path is not valid percent-encoding.' };

/**
 * Every route of the gateway outside `/v1/{slug}` (CONTRACT 0, 5, 7), as OpenAPI operations. No
 * API token: health and the document are public, the signed file URLs carry their own credential
 * and the chat webhook is signed with CHAT_APP_SECRET.
 */
export const UNSCOPED_ROUTES: readonly RouteConfig[] = [
  {
    method: 'get',
    path: UNSCOPED_PATHS.healthz,
    operationId: 'getHealth',
    summary: 'Liveness: the process is up',
    tags: [OPERATIONAL_TAG],
    request: { headers: REQUEST_HEADERS },
    responses: {
      200: { description: 'The process answers.', headers: RESPONSE_HEADERS, content: { 'application/json': { schema: HealthResponseSchema } } },
      ...errorResponses(UNEXPECTED),
    },
  },
  {
    method: 'get',
    path: UNSCOPED_PATHS.readyz,
    operationId: 'getReadiness',
    summary: 'Readiness: Redis, Kafka, every gRPC upstream and MongoDB (through the conversations service) answer',
    description: 'Each check is bounded by 3 s. Which dependency failed is told; how is only in the logs.',
    tags: [OPERATIONAL_TAG],
    request: { headers: REQUEST_HEADERS },
    responses: {
      200: { description: 'Every dependency answered.', headers: RESPONSE_HEADERS, content: { 'application/json': { schema: ReadinessResponseSchema } } },
      503: { description: 'A dependency did not answer. Code: SERVICE_UNAVAILABLE.', headers: RESPONSE_HEADERS, content: { 'application/json': { schema: NotReadyResponseSchema } } },
      ...errorResponses(UNEXPECTED),
    },
  },
  {
    method: 'get',
    path: UNSCOPED_PATHS.openApiDocument,
    operationId: 'getOpenApiDocument',
    summary: 'This document: OpenAPI 3.1 of every route and webhook event',
    tags: [OPERATIONAL_TAG],
    request: { headers: REQUEST_HEADERS },
    responses: {
      200: {
        description: 'The OpenAPI 3.1 document, generated from the schemas that validate requests.',
        headers: RESPONSE_HEADERS,
        content: { 'application/json': { schema: z.object({ openapi: z.string() }).catchall(z.unknown()).openapi('OpenApiDocument') } },
      },
      ...errorResponses(UNEXPECTED),
    },
  },
  htmlPageRoute({
    path: UNSCOPED_PATHS.apiReference,
    operationId: 'getApiReference',
    summary: 'This API reference in a browser: every operation and webhook event, search, and "try it" with your token',
    description: "An HTML page that renders this document (Swagger UI, served by the gateway itself: no CDN). A token entered under Authorize stays in the page's memory only. Links to the guides.",
  }),
  {
    method: 'get',
    path: `${UNSCOPED_PATHS.apiReferenceAssets}/{asset}`,
    operationId: 'getApiReferenceAsset',
    summary: 'A script, stylesheet or icon of the reference page',
    tags: [REFERENCE_TAG],
    request: { params: assetParams, headers: REQUEST_HEADERS },
    responses: {
      200: {
        description: 'The file, cacheable for 10 minutes.',
        headers: { ...RESPONSE_HEADERS, ...PAGE_SECURITY_HEADERS },
        content: { 'text/javascript': { schema: { type: 'string' } }, 'text/css': { schema: { type: 'string' } }, 'image/png': { schema: { type: 'string', format: 'binary' } } },
      },
      ...errorResponses({ 404: { codes: ['NOT_FOUND'], why: 'No such file of the page.' }, ...UNEXPECTED }),
    },
  },
  htmlPageRoute({ path: UNSCOPED_PATHS.guides, operationId: 'listGuides', summary: 'The guides (how-to pages) beside the reference, as an HTML list' }),
  htmlPageRoute({
    path: `${UNSCOPED_PATHS.guides}/{guide}`,
    operationId: 'getGuide',
    summary: 'One guide, rendered from its Markdown',
    params: guideParams,
    notFound: 'No guide of that name.',
  }),
  {
    method: 'put',
    path: `${FILE_TRANSFER_PATHS.upload}/{token}`,
    operationId: 'uploadFileContent',
    summary: 'Upload the content of a file (the upload.url of POST /files/request-upload)',
    description:
      'The raw bytes, streamed, with any Content-Type; the signed URL is the credential (no API token). It accepts a PUT for 15 minutes, and again while the file is pending (the newest complete upload counts). A body longer than the declared size is cut off and discarded (SIZE_MISMATCH); one that breaks off leaves the upload partial. Then POST /files/confirm.',
    tags: [FILES_TAG],
    request: {
      params: tokenParams,
      headers: REQUEST_HEADERS,
      body: {
        required: true,
        description: 'The file content, exactly the declared size.',
        content: { '*/*': { schema: { type: 'string', format: 'binary' }, example: 'Order #1042: 2 x blue mug\n' } },
      },
    },
    responses: {
      204: { description: 'The content is stored; confirm the upload next.', headers: RESPONSE_HEADERS },
      ...errorResponses({
        400: MALFORMED_PATH,
        403: SIGNED_URL_REFUSED,
        404: { codes: ['FILE_NOT_FOUND', 'FILE_NOT_UPLOADED'], why: 'FILE_NOT_FOUND: no pending upload (confirmed, expired or replaced); FILE_NOT_UPLOADED: the body broke off.' },
        422: { codes: ['SIZE_MISMATCH'], why: 'The body is longer than the declared size.' },
        500: { codes: ['UPLOAD_FAILED', 'UNKNOWN_ERROR'] },
        503: { codes: ['SERVICE_UNAVAILABLE'] },
      }),
    },
  },
  {
    method: 'get',
    path: `${FILE_TRANSFER_PATHS.download}/{token}`,
    operationId: 'downloadFileContent',
    summary: 'Download a confirmed file (the short-lived signed URLs the API hands to the chat platform)',
    description: 'The signed URL is the credential (no API token). Served with the sniffed-and-checked Content-Type, Content-Length, an inline Content-Disposition and X-Content-Type-Options: nosniff.',
    tags: [FILES_TAG],
    request: { params: tokenParams, headers: REQUEST_HEADERS },
    responses: {
      200: {
        description: 'The file content.',
        headers: {
          ...RESPONSE_HEADERS,
          'Content-Disposition': { description: 'inline, with the file name (RFC 6266).', schema: { type: 'string' } },
          'Content-Length': { description: 'The file size in bytes.', schema: { type: 'integer', minimum: 0 } },
        },
        content: { '*/*': { schema: { type: 'string', format: 'binary' } } },
      },
      ...errorResponses({
        400: MALFORMED_PATH,
        403: SIGNED_URL_REFUSED,
        404: { codes: ['FILE_NOT_FOUND'], why: 'The file is gone or no longer confirmed.' },
        500: { codes: ['UNKNOWN_ERROR'] },
        503: { codes: ['SERVICE_UNAVAILABLE'] },
      }),
    },
  },
  {
    method: 'get',
    path: UNSCOPED_PATHS.chatWebhook,
    operationId: 'verifyChatWebhook',
    summary: "The chat platform's webhook subscription handshake",
    description: 'Answers hub.challenge as text/plain when hub.mode is subscribe and hub.verify_token equals CHAT_VERIFY_TOKEN.',
    tags: [CHAT_PLATFORM_TAG],
    request: {
      headers: REQUEST_HEADERS,
      query: z.object({
        'hub.mode': z.literal('subscribe').openapi({ param: { example: 'subscribe' } }),
        'hub.verify_token': z.string().openapi({ param: { description: 'Must equal CHAT_VERIFY_TOKEN.', example: 'my-verify-token' } }),
        'hub.challenge': z.string().openapi({ param: { description: 'Echoed back.', example: '1158201444' } }),
      }),
    },
    responses: {
      200: { description: 'The challenge, echoed.', headers: RESPONSE_HEADERS, content: { 'text/plain': { schema: { type: 'string' } } } },
      ...errorResponses({ 403: { codes: ['INVALID_REQUEST'], why: 'hub.mode is not subscribe, or hub.verify_token does not match, or hub.challenge is missing.' }, ...UNEXPECTED }),
    },
  },
  {
    method: 'post',
    path: UNSCOPED_PATHS.chatWebhook,
    operationId: 'receiveChatWebhook',
    summary: "The chat platform's webhook: inbound messages and delivery statuses",
    description:
      'Checked against X-Hub-Signature-256 over the raw body, then queued; acknowledged once queued. A signed body that is not a payload this API understands is acknowledged (so the platform does not retry it for days) and dropped.',
    tags: [CHAT_PLATFORM_TAG],
    request: {
      headers: z.object({
        [PUBLIC_HEADERS.requestId]: RequestIdHeaderSchema.optional(),
        [CHAT_WEBHOOK_SIGNATURE_HEADER]: z
          .string()
          .openapi({ description: '`sha256=` and the hex HMAC-SHA256 of the raw body keyed with CHAT_APP_SECRET.', example: 'sha256=6f1c4e0e2b7b0f9a...' }),
      }),
      body: {
        required: true,
        description: `The platform's webhook payload (Cloud API format), up to ${MAX_CHAT_WEBHOOK_BODY_BYTES} bytes, read as raw bytes whatever its Content-Type.`,
        content: {
          'application/json': {
            schema: z.unknown().openapi('ChatWebhookPayload', { description: '`{object: "whatsapp_business_account", entry: [{id, changes: [{field: "messages", value}]}]}`' }),
            example: {
              object: 'whatsapp_business_account',
              entry: [
                {
                  id: '102290129340398',
                  changes: [
                    {
                      field: 'messages',
                      value: {
                        messaging_product: 'whatsapp',
                        metadata: { display_phone_number: '15550783881', phone_number_id: '106540352242922' },
                        contacts: [{ profile: { name: 'Sheena Nelson' }, wa_id: '16505551234' }],
                        messages: [{ from: '16505551234', id: 'wamid.HBgLMTY1MDM4Nzk0MzkVAgASGBQzQTRBNjU5OUFFRTAzODEwMTQ0RgA=', timestamp: '1749416383', type: 'text', text: { body: 'Hi' } }],
                      },
                    },
                  ],
                },
              ],
            },
          },
        },
      },
    },
    responses: {
      200: { description: 'Queued (or dropped as not understood).', headers: RESPONSE_HEADERS, content: { 'application/json': { schema: ChatWebhookAcknowledgementSchema } } },
      ...errorResponses({
        400: { codes: ['INVALID_REQUEST'], why: 'The body could not be read.' },
        401: { codes: ['INVALID_WEBHOOK_SIGNATURE'], why: 'X-Hub-Signature-256 is missing or does not match.' },
        413: { codes: ['INVALID_REQUEST'], why: `The body is larger than ${MAX_CHAT_WEBHOOK_BODY_BYTES} bytes.` },
        500: { codes: ['UNKNOWN_ERROR'] },
        503: { codes: ['SERVICE_UNAVAILABLE'], why: 'The events could not be queued; the platform delivers them again later.' },
      }),
    },
  },
];
