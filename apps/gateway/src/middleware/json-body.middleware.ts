import { MAX_JSON_BODY_BYTES } from '@cmsg/api-schemas';
import { CatalogError } from '@cmsg/errors';
import express, { type Request, type RequestHandler } from 'express';

/** body-parser's error `type`s, as public INVALID_REQUEST answers. */
function bodyErrorFor(error: unknown): unknown {
  const type = (error as { type?: unknown }).type;
  switch (type) {
    case 'entity.too.large':
      return new CatalogError('INVALID_REQUEST', `The request body is larger than ${MAX_JSON_BODY_BYTES} bytes.`, { httpStatus: 413 });
    case 'entity.parse.failed':
      return new CatalogError('INVALID_REQUEST', 'The request body is not valid JSON.');
    case 'charset.unsupported':
    case 'encoding.unsupported':
      return new CatalogError('INVALID_REQUEST', 'The request body must be UTF-8 JSON without an unsupported content encoding.');
    case 'request.aborted':
    case 'request.size.invalid':
      return new CatalogError('INVALID_REQUEST', 'The request body was incomplete.');
    default:
      return error;
  }
}

/** An empty body (Content-Length: 0) counts as none, so the schema names the missing fields. */
function declaresBody(req: Request): boolean {
  const contentLength = req.headers['content-length'];
  return req.headers['transfer-encoding'] !== undefined || (contentLength !== undefined && contentLength !== '0');
}

/** JSON, and RFC 7386's media type for a merge patch (PATCH /contacts/{uuid}), which is JSON too. */
const JSON_TYPES = ['application/json', 'application/merge-patch+json'];

/** Parses a JSON body of at most 1 MiB; any other content type is 400 INVALID_REQUEST. */
export function jsonBodyMiddleware(): RequestHandler {
  const parseJson = express.json({ limit: MAX_JSON_BODY_BYTES, strict: true, type: JSON_TYPES });
  return (req, res, next) => {
    if (!declaresBody(req)) {
      next();
      return;
    }
    if (!req.is(JSON_TYPES)) {
      next(new CatalogError('INVALID_REQUEST', 'The request body must be JSON with Content-Type: application/json.'));
      return;
    }
    parseJson(req, res, (error?: unknown) => next(error === undefined ? undefined : bodyErrorFor(error)));
  };
}
