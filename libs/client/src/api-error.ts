import type { components } from './generated/openapi';

export type ErrorBody = components['schemas']['ErrorBody'];
export type ErrorCode = ErrorBody['code'];

/** An error answer of the API: its HTTP status and its `{code, message}` body. */
export class CmsgApiError extends Error implements ErrorBody {
  override readonly name = 'CmsgApiError';

  constructor(
    readonly status: number,
    readonly code: ErrorCode,
    message: string,
    /** X-Request-Id of the answer: quote it when asking about this error. */
    readonly requestId: string | null,
  ) {
    super(message);
  }
}

function isErrorBody(value: unknown): value is ErrorBody {
  return typeof value === 'object' && value !== null && typeof (value as ErrorBody).code === 'string' && typeof (value as ErrorBody).message === 'string';
}

/** The `data` of a result, or a thrown CmsgApiError carrying the status and the `{code, message}` of the answer. */
export function unwrap<Result extends { data?: unknown; error?: unknown; response: Response }>(result: Result): Exclude<Result['data'], undefined> {
  const { response } = result;
  if (response.ok) return result.data as Exclude<Result['data'], undefined>;
  const requestId = response.headers.get('x-request-id');
  if (isErrorBody(result.error)) throw new CmsgApiError(response.status, result.error.code, result.error.message, requestId);
  // Not an answer of the API itself (a proxy's page, a cut connection): no code to match on.
  const text = typeof result.error === 'string' ? result.error.slice(0, 200) : '';
  throw new CmsgApiError(response.status, 'UNKNOWN_ERROR', `HTTP ${response.status} without an error body${text ? `: ${text}` : ''}`, requestId);
}
