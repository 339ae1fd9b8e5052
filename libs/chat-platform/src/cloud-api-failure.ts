import { CatalogError, isCatalogError } from '@cmsg/errors';

/** The Graph API error object: `{ error: { message, type, code, error_subcode, error_data, fbtrace_id } }`. */
export interface CloudApiErrorBody {
  message?: string;
  type?: string;
  code?: number;
  error_subcode?: number;
  error_data?: { details?: string; messaging_product?: string };
  fbtrace_id?: string;
}

/**
 * Provider error codes that mean "slow down and try again" rather than "this message is wrong":
 * 4 app rate limit, 80007 account rate limit, 130429 throughput, 131056 pair rate limit.
 */
const RATE_LIMIT_CODES = new Set([4, 80007, 130429, 131056]);

/** The details of one failed Cloud API call, kept as the `cause` of the catalog error (for logs and retry decisions). */
export class CloudApiFailure extends Error {
  constructor(
    message: string,
    readonly details: {
      /** HTTP status, absent when no answer arrived (network error, timeout). */
      status?: number;
      providerError?: CloudApiErrorBody;
      /** Worth retrying later with the same body: no answer, 5xx, or a rate limit. */
      transient: boolean;
    },
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'CloudApiFailure';
  }
}

export function failureFromResponse(status: number, responseBody: unknown): CloudApiFailure {
  const providerError = readProviderError(responseBody);
  const transient = status >= 500 || status === 429 || (providerError?.code !== undefined && RATE_LIMIT_CODES.has(providerError.code));
  return new CloudApiFailure(describeProviderError(status, providerError), { status, providerError, transient });
}

export function failureFromNetwork(error: unknown, timeoutMs: number): CloudApiFailure {
  // fetch rejects with a DOMException, which is not always `instanceof Error` (other realm under jest).
  const name = typeof error === 'object' && error !== null ? (error as { name?: unknown }).name : undefined;
  const timedOut = name === 'TimeoutError' || name === 'AbortError';
  const why = timedOut ? `no answer within ${timeoutMs} ms` : `network error: ${networkReason(error)}`;
  return new CloudApiFailure(why, { transient: true }, { cause: error });
}

/** Wraps a failure into the catalog error the caller raises; the provider's words stay in the message. */
export function catalogErrorFor(code: 'SEND_FAILED' | 'FETCH_FAILED', what: string, failure: CloudApiFailure): CatalogError {
  return new CatalogError(code, `${what} failed: ${failure.message}`, { cause: failure });
}

/** True when a SEND_FAILED/FETCH_FAILED came from a transient provider condition (retry with backoff). */
export function isTransientCloudApiError(error: unknown): boolean {
  if (!isCatalogError(error)) return false;
  const cause = error.cause;
  return cause instanceof CloudApiFailure && cause.details.transient;
}

/** The provider's error object of a catalog error, when there is one. */
export function cloudApiErrorOf(error: unknown): CloudApiErrorBody | undefined {
  if (!isCatalogError(error)) return undefined;
  return error.cause instanceof CloudApiFailure ? error.cause.details.providerError : undefined;
}

function readProviderError(body: unknown): CloudApiErrorBody | undefined {
  if (typeof body !== 'object' || body === null) return undefined;
  const error = (body as { error?: unknown }).error;
  return typeof error === 'object' && error !== null ? (error as CloudApiErrorBody) : undefined;
}

function describeProviderError(status: number, error: CloudApiErrorBody | undefined): string {
  if (!error) return `HTTP ${status} from the Cloud API`;
  const code = error.code !== undefined ? `, code ${error.code}${error.error_subcode !== undefined ? `/${error.error_subcode}` : ''}` : '';
  const details = error.error_data?.details ? ` (${error.error_data.details})` : '';
  const trace = error.fbtrace_id ? ` [fbtrace_id ${error.fbtrace_id}]` : '';
  return `HTTP ${status}${code}: ${error.message ?? 'no message'}${details}${trace}`;
}

function networkReason(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = error.cause;
  if (cause instanceof Error) return `${error.message} (${(cause as NodeJS.ErrnoException).code ?? cause.message})`;
  return error.message;
}
