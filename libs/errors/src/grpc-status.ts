import { CatalogError } from './catalog-error';
import { type ErrorCode, isErrorCode } from './error-catalog';

/** gRPC status codes (grpc/status.h); kept here so this lib needs no transport dependency. */
export enum GrpcStatus {
  OK = 0,
  CANCELLED = 1,
  UNKNOWN = 2,
  INVALID_ARGUMENT = 3,
  DEADLINE_EXCEEDED = 4,
  NOT_FOUND = 5,
  ALREADY_EXISTS = 6,
  PERMISSION_DENIED = 7,
  RESOURCE_EXHAUSTED = 8,
  FAILED_PRECONDITION = 9,
  ABORTED = 10,
  OUT_OF_RANGE = 11,
  UNIMPLEMENTED = 12,
  INTERNAL = 13,
  UNAVAILABLE = 14,
  DATA_LOSS = 15,
  UNAUTHENTICATED = 16,
}

function assertUnreachable(value: never): never {
  throw new Error(`Unmapped error code: ${String(value)}`);
}

/** Every catalog code maps to one gRPC status; an unmapped code does not compile. */
export function grpcStatusForErrorCode(code: ErrorCode): GrpcStatus {
  switch (code) {
    case 'INVALID_REQUEST':
    case 'INVALID_CURSOR':
    case 'BATCH_LIMIT_EXCEEDED':
    case 'TAG_BUSINESS_MISMATCH':
    case 'SCHEDULED_MESSAGE_ACTION_REQUIRED':
    case 'SCHEDULED_MESSAGE_ACTION_INVALID':
    case 'INVALID_FILE_TYPE':
    case 'FILE_TOO_LARGE':
    case 'MIME_MISMATCH':
    case 'PAYMENT_MARKER_NOT_ALLOWED_IN_TEMPLATE':
    case 'TEMPLATE_HEADER_MISMATCH':
      return GrpcStatus.INVALID_ARGUMENT;
    case 'INVALID_API_TOKEN':
    case 'INVALID_WEBHOOK_SIGNATURE':
      return GrpcStatus.UNAUTHENTICATED;
    case 'TOKEN_BUSINESS_MISMATCH':
    case 'CATEGORY_BUSINESS_MISMATCH':
      return GrpcStatus.PERMISSION_DENIED;
    case 'RATE_LIMIT_EXCEEDED':
    case 'TOO_MANY_PENDING_UPLOADS':
    case 'STORAGE_QUOTA_EXCEEDED':
    case 'STORAGE_QUOTA_CLEANUP_INSUFFICIENT':
      return GrpcStatus.RESOURCE_EXHAUSTED;
    case 'CONVERSATION_NOT_FOUND':
    case 'CONTACT_NOT_FOUND':
    case 'CHANNEL_NOT_FOUND':
    case 'TAG_NOT_FOUND':
    case 'TAG_NOT_ASSIGNED':
    case 'CATEGORY_NOT_FOUND':
    case 'MAILBOX_NOT_FOUND':
    case 'AI_EMPLOYEE_NOT_FOUND':
    case 'FILE_NOT_FOUND':
    case 'FILE_NOT_UPLOADED':
    case 'PAYMENT_NOT_FOUND':
    case 'QUICK_REPLY_NOT_FOUND':
    case 'TEMPLATE_NOT_FOUND':
    case 'NOT_FOUND':
    case 'SCHEDULED_MESSAGE_NOT_FOUND':
    case 'ACTION_GROUP_NOT_FOUND':
      return GrpcStatus.NOT_FOUND;
    case 'PHONE_NUMBER_AMBIGUOUS':
    case 'USERNAME_AMBIGUOUS':
    case 'CHAT_USER_ID_AMBIGUOUS':
    case 'TAG_AMBIGUOUS':
    case 'AMBIGUOUS_CATEGORY':
    case 'AMBIGUOUS_MAILBOX':
    case 'AMBIGUOUS_AI_EMPLOYEE':
    case 'QUICK_REPLY_AMBIGUOUS':
    case 'TEMPLATE_AMBIGUOUS':
    case 'TAG_ALREADY_ASSIGNED':
    case 'MAILBOX_ALREADY_ASSIGNED':
    case 'AI_EMPLOYEE_ALREADY_ASSIGNED':
    case 'IDEMPOTENCY_KEY_REUSED':
      return GrpcStatus.ALREADY_EXISTS;
    case 'SCHEDULE_CONFLICT':
    case 'IDEMPOTENCY_REQUEST_IN_PROGRESS':
      return GrpcStatus.ABORTED;
    case 'CHANNEL_NOT_CONFIGURED':
    case 'TESTER_CONVERSATION_NOT_WRITABLE':
    case 'TRANSCRIPTION_REQUIRED_TO_RESOLVE':
    case 'TRANSCRIPTION_REQUIRED':
    case 'CANNOT_ASSIGN_DEFAULT_TAG':
    case 'CANNOT_REMOVE_DEFAULT_TAG':
    case 'NO_MAILBOXES_IN_CATEGORY':
    case 'WINDOW_CLOSED':
    case 'WALLET_BLOCKED':
    case 'VISION_WALLET_BLOCKED':
    case 'VISION_BLOCKED':
    case 'NO_AI_EMPLOYEE_ASSIGNED':
    case 'OWNER_MISMATCH':
    case 'INVALID_ASSIGNEE_FOR_RUN_AI':
    case 'ACTIONS_DEPTH_EXCEEDED':
    case 'SIZE_MISMATCH':
    case 'BSUID_SEND_DISABLED':
    case 'PAYMENT_MARKER_UNKNOWN':
    case 'PAYMENT_MARKER_DATA_UNAVAILABLE':
    case 'PAYMENT_MARKER_UNSUPPORTED_FIELD':
    case 'TEMPLATE_BODY_TOO_LONG':
    case 'QUICK_REPLY_EMPTY':
    case 'TEMPLATE_NOT_APPROVED':
    case 'AUTH_TEMPLATE_REQUIRES_PHONE':
    case 'TEMPLATE_VARIABLES_INVALID':
    case 'TEMPLATE_HEADER_TRANSCRIPTION_MISSING':
    case 'TEMPLATE_FAKE_REQUIRES_TESTER_CONVERSATION':
    case 'NOT_A_TESTER_CONVERSATION':
      return GrpcStatus.FAILED_PRECONDITION;
    case 'METHOD_NOT_ALLOWED':
      return GrpcStatus.UNIMPLEMENTED;
    case 'SERVICE_UNAVAILABLE':
      return GrpcStatus.UNAVAILABLE;
    case 'SEND_FAILED':
    case 'AI_EXECUTION_FAILED':
    case 'UPLOAD_FAILED':
    case 'PREPARE_FAILED':
    case 'PAYMENT_PROFILE_GENERATION_FAILED':
    case 'FETCH_FAILED':
    case 'UPDATE_FAILED':
    case 'UNKNOWN_ERROR':
      return GrpcStatus.INTERNAL;
    default:
      return assertUnreachable(code);
  }
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
      return assertUnreachable(status);
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
    return new CatalogError(detail.reason, detail.message, { httpStatus, retryAfterSeconds: retryAfter });
  }
  switch (detail.grpcStatus) {
    case GrpcStatus.UNAVAILABLE:
      return new CatalogError('SERVICE_UNAVAILABLE');
    case GrpcStatus.DEADLINE_EXCEEDED:
      return new CatalogError('SERVICE_UNAVAILABLE', 'An upstream service did not answer in time; retry with backoff.', {
        httpStatus: httpStatusForGrpcStatus(GrpcStatus.DEADLINE_EXCEEDED),
      });
    default:
      return new CatalogError('UNKNOWN_ERROR');
  }
}
