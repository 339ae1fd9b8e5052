import type { Metadata, ServiceError, StatusObject } from '@grpc/grpc-js';
import { Metadata as GrpcMetadata } from '@grpc/grpc-js';
import { CatalogError, ERROR_INFO_DOMAIN, GrpcStatus, catalogErrorFromGrpc, grpcErrorDetailFor } from '@cmsg/errors';
import { Any, ErrorInfo, Status } from '@cmsg/proto';

const DETAILS_TRAILER = 'grpc-status-details-bin';
const ERROR_INFO_TYPE_URL = 'type.googleapis.com/google.rpc.ErrorInfo';

/** A catalog error as a gRPC status whose google.rpc.ErrorInfo reason is the catalog code. */
export function toGrpcStatus(error: CatalogError): Partial<StatusObject> {
  const detail = grpcErrorDetailFor(error);
  const errorInfo = ErrorInfo.encode({ reason: detail.reason, domain: ERROR_INFO_DOMAIN, metadata: detail.metadata }).finish();
  const status = Status.encode({
    code: detail.grpcStatus,
    message: detail.message,
    details: [Any.fromPartial({ type_url: ERROR_INFO_TYPE_URL, value: Buffer.from(errorInfo) })],
  }).finish();
  const metadata = new GrpcMetadata();
  metadata.set(DETAILS_TRAILER, Buffer.from(status));
  return { code: detail.grpcStatus as number, details: detail.message, metadata };
}

function errorInfoFrom(metadata: Metadata | undefined): ErrorInfo | undefined {
  const raw = metadata?.get(DETAILS_TRAILER)[0];
  if (!raw || typeof raw === 'string') return undefined;
  try {
    const status = Status.decode(raw);
    const info = status.details.find((any) => any.type_url === ERROR_INFO_TYPE_URL);
    return info ? ErrorInfo.decode(info.value) : undefined;
  } catch {
    return undefined;
  }
}

/** The caller's side: the catalog error the service raised, or a generic one for transport failures. */
export function fromGrpcError(error: ServiceError): CatalogError {
  const info = errorInfoFrom(error.metadata);
  return catalogErrorFromGrpc({
    grpcStatus: error.code as unknown as GrpcStatus,
    message: error.details,
    reason: info?.domain === ERROR_INFO_DOMAIN ? info.reason : undefined,
    metadata: info?.metadata,
  });
}
