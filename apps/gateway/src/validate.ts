import { IdempotencyKeyHeaderSchema, PUBLIC_HEADERS, type EndpointInput, type PublicEndpoint, catalogCodeOf } from '@cmsg/api-schemas';
import { CatalogError, type ErrorCode } from '@cmsg/errors';
import type { Request } from 'express';
import type { z } from 'zod';

type RequestPart = 'path' | 'query' | 'body';

interface Problem {
  text: string;
  /** Set when the failed rule answers with its own catalog code (catalogCoded). */
  code: ErrorCode | undefined;
}

function problemsOf(error: z.ZodError, part: RequestPart): Problem[] {
  return error.issues.map((issue) => ({ text: `${issue.path.length > 0 ? issue.path.join('.') : part}: ${issue.message}`, code: catalogCodeOf(issue) }));
}

function parsePart(schema: z.ZodType | undefined, value: unknown, part: RequestPart, problems: Problem[]): unknown {
  if (!schema) return undefined;
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  problems.push(...problemsOf(result.error, part));
  return undefined;
}

/**
 * The request parts an endpoint declares, parsed by its schemas (unknown fields dropped, defaults
 * applied); otherwise 400 INVALID_REQUEST whose message names every offending field, or, when a
 * failed rule carries a catalog code of its own, that code for its field (the first such).
 */
export function parseEndpointInput<Endpoint extends PublicEndpoint>(endpoint: Endpoint, req: Request): EndpointInput<Endpoint> {
  const problems: Problem[] = [];
  const { params, query, body } = endpoint.schemas;
  const input = {
    params: parsePart(params, req.params, 'path', problems),
    query: parsePart(query, req.query, 'query', problems),
    body: parsePart(body, req.body, 'body', problems),
  };
  const coded = problems.find((problem) => problem.code !== undefined);
  if (coded?.code) throw new CatalogError(coded.code, `Invalid request: ${coded.text}.`);
  if (problems.length > 0) throw new CatalogError('INVALID_REQUEST', `Invalid request: ${problems.map((problem) => problem.text).join('; ')}.`);
  return input as EndpointInput<Endpoint>;
}

/** The optional Idempotency-Key header: 1 to 255 characters when present. */
export function parseIdempotencyKey(req: Request): string | undefined {
  const key = req.get(PUBLIC_HEADERS.idempotencyKey);
  if (key === undefined) return undefined;
  if (!IdempotencyKeyHeaderSchema.safeParse(key).success) {
    throw new CatalogError('INVALID_REQUEST', `Invalid request: ${PUBLIC_HEADERS.idempotencyKey} must be 1 to 255 characters.`);
  }
  return key;
}
