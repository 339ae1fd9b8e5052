import { assertUnreachable } from './assert-unreachable';
import { CatalogError } from './catalog-error';
import { ERROR_CATALOG, type ErrorCode, isErrorCode } from './error-catalog';
import { GrpcStatus } from './grpc-status-code';

/** Every catalog code has its gRPC status in the catalog; a code without one does not compile. */
export function grpcStatusForErrorCode(code: ErrorCode): GrpcStatus {
  return ERROR_CATALOG[code].grpcStatus;
}

/** grpc-gateway's HTTPStatusFromCode: used only when a gRPC error carries no catalog code. */
export function httpStatusForGrpcStatus(status: GrpcStatus): number {
  switch (status) {
    case GrpcStatus.OK:
      return 200;
    case GrpcStatus.CANCELLED:
      return 499;
    case GrpcStatus.INVALID_ARGUMENT:
    case GrpcStatus.FAILED_PRECONDITION:
    case GrpcStatus.OUT_OF_RANGE:
      return 400;
    case GrpcStatus.UNAUTHENTICATED:
      return 401;
    case GrpcStatus.PERMISSION_DENIED:
      return 403;
    case GrpcStatus.NOT_FOUND:
      return 404;
    case GrpcStatus.ALREADY_EXISTS:
    case GrpcStatus.ABORTED:
      return 409;
    case GrpcStatus.RESOURCE_EXHAUSTED:
      return 429;
    case GrpcStatus.UNIMPLEMENTED:
      return 501;
    case GrpcStatus.UNAVAILABLE:
      return 503;
    case GrpcStatus.DEADLINE_EXCEEDED:
      return 504;
    case GrpcStatus.UNKNOWN:
    case GrpcStatus.INTERNAL:
    case GrpcStatus.DATA_LOSS:
      return 500;
    default:
      return assertUnreachable(status, 'Unmapped error code');
  }
}

/** What a catalog error carries across gRPC: google.rpc.ErrorInfo reason plus metadata. */
export interface GrpcErrorDetail {
  grpcStatus: GrpcStatus;
  message: string;
  reason: string;
  metadata: Record<string, string>;
}

export const ERROR_INFO_DOMAIN = 'cmsg.api';

export function grpcErrorDetailFor(error: CatalogError): GrpcErrorDetail {
  const metadata: Record<string, string> = { http_status: String(error.httpStatus) };
  if (error.retryAfterSeconds !== undefined) metadata['retry_after_seconds'] = String(error.retryAfterSeconds);
  // Present (empty for null) only on a send's failure: the caller tells "no provider code" from "not a send".
  if (error.providerCode !== undefined) metadata['provider_code'] = error.providerCode ?? '';
  return { grpcStatus: grpcStatusForErrorCode(error.code), message: error.message, reason: error.code, metadata };
}

/** Rebuilds the catalog error on the calling side; a bare transport failure gets a generic code. */
export function catalogErrorFromGrpc(detail: {
  grpcStatus: GrpcStatus;
  message: string;
  reason?: string;
  metadata?: Record<string, string>;
}): CatalogError {
  if (detail.reason && isErrorCode(detail.reason)) {
    const httpStatus = Number(detail.metadata?.['http_status']) || undefined;
    const retryAfter = Number(detail.metadata?.['retry_after_seconds']) || undefined;
    const providerCode = detail.metadata?.['provider_code'];
    return new CatalogError(detail.reason, detail.message, {
      httpStatus,
      retryAfterSeconds: retryAfter,
      ...(providerCode !== undefined ? { providerCode: providerCode || null } : {}),
    });
  }
  switch (detail.grpcStatus) {
    case GrpcStatus.UNAVAILABLE:
      return new CatalogError('SERVICE_UNAVAILABLE');
    case GrpcStatus.CANCELLED:
      // Only the side that cancelled sees this; nothing reaches a client that already went away.
      return new CatalogError('SERVICE_UNAVAILABLE', 'The call was cancelled before it finished.', {
        httpStatus: httpStatusForGrpcStatus(GrpcStatus.CANCELLED),
      });
    case GrpcStatus.DEADLINE_EXCEEDED:
      return new CatalogError('SERVICE_UNAVAILABLE', 'An upstream service did not answer in time; retry with backoff.', {
        httpStatus: httpStatusForGrpcStatus(GrpcStatus.DEADLINE_EXCEEDED),
      });
    default:
      return new CatalogError('UNKNOWN_ERROR');
  }
}
