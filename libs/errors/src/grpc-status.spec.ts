import { CatalogError } from './catalog-error';
import { ERROR_CATALOG, ERROR_CODES, type ErrorCode } from './error-catalog';
import { GrpcStatus } from './grpc-status-code';
import { catalogErrorFromGrpc, grpcErrorDetailFor, grpcStatusForErrorCode, httpStatusForGrpcStatus } from './grpc-status';

describe('catalog <-> gRPC mapping', () => {
  it.each(ERROR_CODES.map((code) => [code]))('%s survives the gRPC round trip with its status and message', (code: ErrorCode) => {
    const original = new CatalogError(code, `custom message for ${code}`, { retryAfterSeconds: code === 'RATE_LIMIT_EXCEEDED' ? 7 : undefined });
    const detail = grpcErrorDetailFor(original);
    expect(detail.grpcStatus).toBe(grpcStatusForErrorCode(code));
    const rebuilt = catalogErrorFromGrpc(detail);
    expect(rebuilt.code).toBe(code);
    expect(rebuilt.httpStatus).toBe(ERROR_CATALOG[code].httpStatus);
    expect(rebuilt.message).toBe(`custom message for ${code}`);
    expect(rebuilt.retryAfterSeconds).toBe(code === 'RATE_LIMIT_EXCEEDED' ? 7 : undefined);
  });

  it('keeps a send failure\'s provider code across gRPC, null included, and adds none to other errors', () => {
    const mapped = catalogErrorFromGrpc(grpcErrorDetailFor(new CatalogError('RECIPIENT_UNDELIVERABLE', 'undeliverable', { providerCode: '131026' })));
    expect(mapped.providerCode).toBe('131026');
    expect(mapped.toBody()).toEqual({ code: 'RECIPIENT_UNDELIVERABLE', message: 'undeliverable', provider_code: '131026' });
    const withoutCode = catalogErrorFromGrpc(grpcErrorDetailFor(new CatalogError('SEND_FAILED', 'no answer', { providerCode: null })));
    expect(withoutCode.providerCode).toBeNull();
    expect(withoutCode.toBody()).toEqual({ code: 'SEND_FAILED', message: 'no answer', provider_code: null });
    const other = catalogErrorFromGrpc(grpcErrorDetailFor(new CatalogError('TAG_NOT_FOUND')));
    expect(other.providerCode).toBeUndefined();
    expect(other.toBody()).not.toHaveProperty('provider_code');
  });

  it('keeps an endpoint-specific HTTP status override across gRPC', () => {
    const rebuilt = catalogErrorFromGrpc(grpcErrorDetailFor(new CatalogError('INVALID_REQUEST', 'too big', { httpStatus: 413 })));
    expect(rebuilt.httpStatus).toBe(413);
  });

  it.each<[ErrorCode, GrpcStatus]>([
    ['INVALID_REQUEST', GrpcStatus.INVALID_ARGUMENT],
    ['INVALID_API_TOKEN', GrpcStatus.UNAUTHENTICATED],
    ['TOKEN_BUSINESS_MISMATCH', GrpcStatus.PERMISSION_DENIED],
    ['CONVERSATION_NOT_FOUND', GrpcStatus.NOT_FOUND],
    ['PHONE_NUMBER_AMBIGUOUS', GrpcStatus.ALREADY_EXISTS],
    ['SCHEDULE_CONFLICT', GrpcStatus.ABORTED],
    ['RATE_LIMIT_EXCEEDED', GrpcStatus.RESOURCE_EXHAUSTED],
    ['WINDOW_CLOSED', GrpcStatus.FAILED_PRECONDITION],
    ['SEND_FAILED', GrpcStatus.INTERNAL],
    ['SERVICE_UNAVAILABLE', GrpcStatus.UNAVAILABLE],
    ['TOKEN_SCOPE_INSUFFICIENT', GrpcStatus.PERMISSION_DENIED],
    ['WEBHOOK_ENDPOINT_NOT_FOUND', GrpcStatus.NOT_FOUND],
    ['WEBHOOK_ENDPOINT_LIMIT_REACHED', GrpcStatus.ALREADY_EXISTS],
    ['EVENT_NOT_FOUND', GrpcStatus.NOT_FOUND],
  ])('%s maps to gRPC %s', (code, status) => {
    expect(grpcStatusForErrorCode(code)).toBe(status);
  });

  it.each<[GrpcStatus, number]>([
    [GrpcStatus.OK, 200],
    [GrpcStatus.CANCELLED, 499],
    [GrpcStatus.UNKNOWN, 500],
    [GrpcStatus.INVALID_ARGUMENT, 400],
    [GrpcStatus.DEADLINE_EXCEEDED, 504],
    [GrpcStatus.NOT_FOUND, 404],
    [GrpcStatus.ALREADY_EXISTS, 409],
    [GrpcStatus.PERMISSION_DENIED, 403],
    [GrpcStatus.RESOURCE_EXHAUSTED, 429],
    [GrpcStatus.FAILED_PRECONDITION, 400],
    [GrpcStatus.ABORTED, 409],
    [GrpcStatus.OUT_OF_RANGE, 400],
    [GrpcStatus.UNIMPLEMENTED, 501],
    [GrpcStatus.INTERNAL, 500],
    [GrpcStatus.UNAVAILABLE, 503],
    [GrpcStatus.DATA_LOSS, 500],
    [GrpcStatus.UNAUTHENTICATED, 401],
  ])('gRPC status %s is HTTP %s (grpc-gateway table)', (status, http) => {
    expect(httpStatusForGrpcStatus(status)).toBe(http);
  });

  it('turns a bare transport failure into a generic catalog error', () => {
    expect(catalogErrorFromGrpc({ grpcStatus: GrpcStatus.UNAVAILABLE, message: 'connect ECONNREFUSED' }).code).toBe('SERVICE_UNAVAILABLE');
    expect(catalogErrorFromGrpc({ grpcStatus: GrpcStatus.DEADLINE_EXCEEDED, message: 'deadline' }).httpStatus).toBe(504);
    expect(catalogErrorFromGrpc({ grpcStatus: GrpcStatus.CANCELLED, message: 'Cancelled on client' }).httpStatus).toBe(499);
    expect(catalogErrorFromGrpc({ grpcStatus: GrpcStatus.INTERNAL, message: 'boom', reason: 'NOT_A_CODE' }).code).toBe('UNKNOWN_ERROR');
  });
});

describe('catalog', () => {
  it('holds every code of SPEC section 7 and of the CONTRACT and project additions with its HTTP status, and no other', () => {
    const spec: Record<string, number> = {
      INVALID_API_TOKEN: 401, TOKEN_BUSINESS_MISMATCH: 403, RATE_LIMIT_EXCEEDED: 429, INVALID_REQUEST: 400, INVALID_CURSOR: 400,
      BATCH_LIMIT_EXCEEDED: 400, CONVERSATION_NOT_FOUND: 404, CONTACT_NOT_FOUND: 404, PHONE_NUMBER_AMBIGUOUS: 409, USERNAME_AMBIGUOUS: 409,
      CHANNEL_NOT_FOUND: 404, CHANNEL_NOT_CONFIGURED: 422, TESTER_CONVERSATION_NOT_WRITABLE: 422, TRANSCRIPTION_REQUIRED_TO_RESOLVE: 422,
      TRANSCRIPTION_REQUIRED: 422, TAG_NOT_FOUND: 404, TAG_ALREADY_ASSIGNED: 409, TAG_NOT_ASSIGNED: 404, TAG_AMBIGUOUS: 409,
      TAG_BUSINESS_MISMATCH: 400, CANNOT_ASSIGN_DEFAULT_TAG: 422, CANNOT_REMOVE_DEFAULT_TAG: 422, CATEGORY_NOT_FOUND: 404,
      CATEGORY_BUSINESS_MISMATCH: 403, AMBIGUOUS_CATEGORY: 409, MAILBOX_NOT_FOUND: 404, MAILBOX_ALREADY_ASSIGNED: 409, AMBIGUOUS_MAILBOX: 409,
      NO_MAILBOXES_IN_CATEGORY: 422, WINDOW_CLOSED: 422, WALLET_BLOCKED: 402, VISION_WALLET_BLOCKED: 402, VISION_BLOCKED: 402,
      NO_AI_EMPLOYEE_ASSIGNED: 422, OWNER_MISMATCH: 422, SCHEDULE_CONFLICT: 409, AI_EMPLOYEE_NOT_FOUND: 404, AMBIGUOUS_AI_EMPLOYEE: 409,
      AI_EMPLOYEE_ALREADY_ASSIGNED: 409, INVALID_ASSIGNEE_FOR_RUN_AI: 409, AI_EXECUTION_FAILED: 500, ACTIONS_DEPTH_EXCEEDED: 422,
      SCHEDULED_MESSAGE_ACTION_REQUIRED: 400, SCHEDULED_MESSAGE_ACTION_INVALID: 400, INVALID_FILE_TYPE: 400, FILE_TOO_LARGE: 400,
      STORAGE_QUOTA_EXCEEDED: 413, STORAGE_QUOTA_CLEANUP_INSUFFICIENT: 507, FILE_NOT_FOUND: 404, FILE_NOT_UPLOADED: 404, SIZE_MISMATCH: 422,
      MIME_MISMATCH: 400, UPLOAD_FAILED: 500, TOO_MANY_PENDING_UPLOADS: 429, PREPARE_FAILED: 500, SEND_FAILED: 502, BSUID_SEND_DISABLED: 409,
      PAYMENT_MARKER_UNKNOWN: 422, PAYMENT_MARKER_DATA_UNAVAILABLE: 422, PAYMENT_MARKER_UNSUPPORTED_FIELD: 422,
      PAYMENT_MARKER_NOT_ALLOWED_IN_TEMPLATE: 400, TEMPLATE_BODY_TOO_LONG: 422, PAYMENT_PROFILE_GENERATION_FAILED: 500,
      QUICK_REPLY_NOT_FOUND: 404, QUICK_REPLY_AMBIGUOUS: 409, QUICK_REPLY_EMPTY: 422, TEMPLATE_NOT_FOUND: 404, TEMPLATE_NOT_APPROVED: 422,
      AUTH_TEMPLATE_REQUIRES_PHONE: 409, TEMPLATE_AMBIGUOUS: 409, TEMPLATE_VARIABLES_INVALID: 422, TEMPLATE_HEADER_MISMATCH: 400,
      TEMPLATE_HEADER_TRANSCRIPTION_MISSING: 422, TEMPLATE_FAKE_REQUIRES_TESTER_CONVERSATION: 422, PAYMENT_NOT_FOUND: 404, FETCH_FAILED: 500,
      UPDATE_FAILED: 500, UNKNOWN_ERROR: 500,
      // CONTRACT section 1 additions
      NOT_FOUND: 404, METHOD_NOT_ALLOWED: 405, IDEMPOTENCY_KEY_REUSED: 409,
      // Project additions
      IDEMPOTENCY_REQUEST_IN_PROGRESS: 409, SCHEDULED_MESSAGE_NOT_FOUND: 404, ACTION_GROUP_NOT_FOUND: 404, CHAT_USER_ID_AMBIGUOUS: 409,
      NOT_A_TESTER_CONVERSATION: 422, INVALID_WEBHOOK_SIGNATURE: 401, SERVICE_UNAVAILABLE: 503,
      // CONTRACT section 9 additions
      TOKEN_SCOPE_INSUFFICIENT: 403, WEBHOOK_ENDPOINT_NOT_FOUND: 404, WEBHOOK_ENDPOINT_LIMIT_REACHED: 409, EVENT_NOT_FOUND: 404,
      // CONTRACT section 10 additions
      CONTACT_IDENTIFIER_CONFLICT: 409, ATTRIBUTE_LIMIT_REACHED: 409, ATTRIBUTE_ALREADY_DEFINED: 409, ATTRIBUTE_UNDEFINED: 422,
      CONTACT_OPTED_OUT: 409, RECIPIENT_UNDELIVERABLE: 422, MARKETING_LIMIT_REACHED: 422, RECIPIENT_IN_EXPERIMENT: 422,
      MESSAGING_LIMIT_REACHED: 429, BROADCAST_NOT_FOUND: 404, BROADCAST_STATE_CONFLICT: 409,
    };
    for (const [code, status] of Object.entries(spec)) {
      expect({ code, status: ERROR_CATALOG[code as ErrorCode]?.httpStatus }).toEqual({ code, status });
    }
    // A code added to the catalog must be added here too, with its status.
    expect(Object.keys(spec).sort()).toEqual([...ERROR_CODES].sort());
  });

  it('gives every code a non-empty English default message', () => {
    for (const code of ERROR_CODES) expect(ERROR_CATALOG[code].message.length).toBeGreaterThan(10);
  });

  it('uses the default message unless given one', () => {
    expect(new CatalogError('WINDOW_CLOSED').toBody()).toEqual({ code: 'WINDOW_CLOSED', message: ERROR_CATALOG.WINDOW_CLOSED.message });
  });
});
