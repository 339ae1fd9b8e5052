import { ERROR_CATALOG, type ErrorCode } from './error-catalog';

export interface CatalogErrorOptions {
  /** Where an endpoint differs from the catalog's typical status (SPEC 7: "an endpoint may differ"). */
  httpStatus?: number;
  /** Seconds the client should wait, sent as Retry-After. */
  retryAfterSeconds?: number;
  /**
   * The chat platform's own error code of a failed send (CONTRACT 10.3), e.g. "131026"; null for a
   * send failure without one (no answer, no code). Left undefined by every error that is not a send's.
   */
  providerCode?: string | null;
  cause?: unknown;
}

/** The only error domain code throws: a catalog code, its HTTP status and an English message. */
export class CatalogError extends Error {
  readonly code: ErrorCode;
  readonly httpStatus: number;
  readonly retryAfterSeconds: number | undefined;
  readonly providerCode: string | null | undefined;

  constructor(code: ErrorCode, message?: string, options: CatalogErrorOptions = {}) {
    super(message ?? ERROR_CATALOG[code].message, { cause: options.cause });
    this.name = 'CatalogError';
    this.code = code;
    this.httpStatus = options.httpStatus ?? ERROR_CATALOG[code].httpStatus;
    this.retryAfterSeconds = options.retryAfterSeconds;
    this.providerCode = options.providerCode;
  }

  /** `provider_code` only on a send's failure, so every other error body keeps its two fields. */
  toBody(): ErrorBody {
    return { code: this.code, message: this.message, ...(this.providerCode !== undefined ? { provider_code: this.providerCode } : {}) };
  }
}

export interface ErrorBody {
  code: ErrorCode;
  message: string;
  provider_code?: string | null;
}

export function isCatalogError(error: unknown): error is CatalogError {
  return error instanceof CatalogError;
}

/** Anything that is not a catalog error becomes UNKNOWN_ERROR; its details stay in the logs. */
export function toCatalogError(error: unknown): CatalogError {
  return isCatalogError(error) ? error : new CatalogError('UNKNOWN_ERROR', undefined, { cause: error });
}
