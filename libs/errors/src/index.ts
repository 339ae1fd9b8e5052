export { ERROR_CATALOG, ERROR_CODES, isErrorCode } from './error-catalog';
export type { CatalogEntry, ErrorCode } from './error-catalog';
export { CatalogError, isCatalogError, toCatalogError } from './catalog-error';
export type { CatalogErrorOptions, ErrorBody } from './catalog-error';
export { GrpcStatus } from './grpc-status-code';
export { assertUnreachable } from './assert-unreachable';
export {
  grpcStatusForErrorCode,
  httpStatusForGrpcStatus,
  grpcErrorDetailFor,
  catalogErrorFromGrpc,
  ERROR_INFO_DOMAIN,
} from './grpc-status';
export type { GrpcErrorDetail } from './grpc-status';
