import { PUBLIC_HEADERS } from '@cmsg/api-schemas';
import { CatalogError, isCatalogError } from '@cmsg/errors';
import type { Logger } from '@cmsg/platform';
import type { ErrorRequestHandler } from 'express';
import { redactSignedFilePath } from './file-transfers/signed-path-redaction';

/** Express' own 4xx errors (e.g. a path parameter that is not valid percent-encoding). */
function clientHttpStatusOf(error: unknown): number | undefined {
  const status = (error as { status?: unknown; statusCode?: unknown } | null)?.status ?? (error as { statusCode?: unknown } | null)?.statusCode;
  return typeof status === 'number' && status >= 400 && status < 500 ? status : undefined;
}

/** The public face of any error: a catalog error as it is; anything else UNKNOWN_ERROR, details only in the logs. */
export function publicErrorOf(error: unknown): CatalogError {
  if (isCatalogError(error)) return error;
  const clientStatus = clientHttpStatusOf(error);
  if (clientStatus === 404) return new CatalogError('NOT_FOUND');
  if (clientStatus !== undefined) return new CatalogError('INVALID_REQUEST', undefined, { httpStatus: clientStatus });
  return new CatalogError('UNKNOWN_ERROR', undefined, { cause: error });
}

/** The one place an error becomes a response: status, `{code, message}` and Retry-After. */
export function errorHandler(logger: Logger): ErrorRequestHandler {
  return (error: unknown, req, res, next) => {
    if (res.headersSent) {
      next(error);
      return;
    }
    const publicError = publicErrorOf(error);
    if (publicError.code === 'UNKNOWN_ERROR' && !isCatalogError(error)) {
      logger.error({ err: error, method: req.method, path: redactSignedFilePath(req.path) }, 'unexpected error');
    } else if (publicError.httpStatus >= 500) {
      logger.warn({ code: publicError.code, message: publicError.message, method: req.method, path: redactSignedFilePath(req.path) }, 'request failed');
    }
    if (publicError.retryAfterSeconds !== undefined) res.setHeader(PUBLIC_HEADERS.retryAfter, String(publicError.retryAfterSeconds));
    res.status(publicError.httpStatus).json(publicError.toBody());
  };
}
