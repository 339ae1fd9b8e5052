import type { ErrorCode } from '@cmsg/errors';
import type { z } from 'zod';

export type EndpointMethod = 'get' | 'post' | 'patch' | 'delete';

export interface EndpointSchemas {
  params?: z.ZodObject;
  query?: z.ZodObject;
  body?: z.ZodType;
  response: z.ZodType;
}

type InputOf<Schemas, Part extends keyof EndpointSchemas> = Schemas extends { [Key in Part]: infer Schema extends z.ZodType } ? z.input<Schema> : never;

/** One request as a client would send it: the document's example, checked against the schemas by a test. */
export interface RequestExample<Schemas extends EndpointSchemas = EndpointSchemas> {
  /** Query parameters as they travel (strings; a list for a repeated parameter). */
  query?: Record<string, string | readonly string[]>;
  body?: InputOf<Schemas, 'body'>;
}

/**
 * One public business endpoint: everything the gateway validates with and everything the OpenAPI
 * document says about it, declared once.
 */
export interface PublicEndpoint<Schemas extends EndpointSchemas = EndpointSchemas> {
  operationId: string;
  method: EndpointMethod;
  /** Below `/v1/{slug}`, Express-style parameters (`/scheduled-messages/:uuid`). */
  path: string;
  summary: string;
  description?: string;
  tag: string;
  successStatus: 200 | 201 | 202 | 204;
  successDescription: string;
  /** A second success answer with the same body (POST /contacts: 200 for a match, 201 for a creation). */
  otherSuccess?: { status: 200; description: string };
  /** Codes this endpoint answers beyond those every business endpoint can answer (see openapi.ts). */
  errorCodes: readonly ErrorCode[];
  schemas: Schemas;
  /** Required when the endpoint takes a body or query parameters. */
  requestExample?: RequestExample<Schemas>;
}

type OutputOf<Schemas, Part extends keyof EndpointSchemas> = Schemas extends { [Key in Part]: infer Schema extends z.ZodType }
  ? z.output<Schema>
  : undefined;

/** The validated request parts a handler receives. */
export interface EndpointInput<Endpoint extends PublicEndpoint> {
  params: OutputOf<Endpoint['schemas'], 'params'>;
  query: OutputOf<Endpoint['schemas'], 'query'>;
  body: OutputOf<Endpoint['schemas'], 'body'>;
}

/** The success body a handler must produce. */
export type EndpointResponse<Endpoint extends PublicEndpoint> = z.input<Endpoint['schemas']['response']>;

export function definePublicEndpoint<const Schemas extends EndpointSchemas>(endpoint: PublicEndpoint<Schemas>): PublicEndpoint<Schemas> {
  return endpoint;
}

/** `/conversation/:uuid` -> `/conversation/{uuid}` */
export function openApiPathOf(expressPath: string): string {
  return expressPath.replace(/:([A-Za-z_][A-Za-z0-9_]*)/g, '{$1}');
}
