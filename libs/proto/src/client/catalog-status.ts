import type { ServiceError, StatusObject } from '@grpc/grpc-js';
import { Metadata } from '@grpc/grpc-js';
import { CatalogError, ERROR_INFO_DOMAIN, GrpcStatus, catalogErrorFromGrpc, grpcErrorDetailFor } from '@cmsg/errors';
import { Any } from '../generated/google/protobuf/any';
import { ErrorInfo, Status } from '../generated/google/rpc/status';

/** The trailer grpc-go, grpc-java and grpcurl read the rich status (google.rpc.Status) from. */
export const STATUS_DETAILS_TRAILER = 'grpc-status-details-bin';
const ERROR_INFO_TYPE_URL = 'type.googleapis.com/google.rpc.ErrorInfo';

/** A catalog error as a gRPC status whose google.rpc.ErrorInfo reason is the catalog code. */
export function catalogErrorStatus(error: CatalogError): Partial<StatusObject> {
  const detail = grpcErrorDetailFor(error);
  const errorInfo = ErrorInfo.encode({ reason: detail.reason, domain: ERROR_INFO_DOMAIN, metadata: detail.metadata }).finish();
  const status = Status.encode({
    code: detail.grpcStatus,
    message: detail.message,
    details: [Any.fromPartial({ type_url: ERROR_INFO_TYPE_URL, value: Buffer.from(errorInfo) })],
  }).finish();
  const metadata = new Metadata();
  metadata.set(STATUS_DETAILS_TRAILER, Buffer.from(status));
  return { code: detail.grpcStatus as number, details: detail.message, metadata };
}

function errorInfoFrom(metadata: Metadata | undefined): ErrorInfo | undefined {
  const raw = metadata?.get(STATUS_DETAILS_TRAILER)[0];
  if (!raw || typeof raw === 'string') return undefined;
  try {
    const status = Status.decode(raw);
    const info = status.details.find((any) => any.type_url === ERROR_INFO_TYPE_URL);
    return info ? ErrorInfo.decode(info.value) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The caller's side: the catalog error the service raised (same code, message and HTTP status a
 * REST client gets), or a generic one for a transport failure (UNAVAILABLE, DEADLINE_EXCEEDED...).
 */
export function catalogErrorFromServiceError(error: Pick<ServiceError, 'code' | 'details' | 'metadata'>): CatalogError {
  const info = errorInfoFrom(error.metadata);
  return catalogErrorFromGrpc({
    grpcStatus: error.code as unknown as GrpcStatus,
    message: error.details,
    reason: info?.domain === ERROR_INFO_DOMAIN ? info.reason : undefined,
    metadata: info?.metadata,
  });
}
