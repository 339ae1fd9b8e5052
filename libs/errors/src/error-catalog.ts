import { GrpcStatus } from './grpc-status-code';

/**
 * The one catalog of public error codes: SPEC section 7 plus the CONTRACT additions
 * (NOT_FOUND, METHOD_NOT_ALLOWED, IDEMPOTENCY_KEY_REUSED) and the few this project adds
 * (documented in docs/errors.md). Nothing outside this file invents a code.
 */
export interface CatalogEntry {
  readonly httpStatus: number;
  /** The status a gRPC caller sees; the code itself rides in the status details (docs/grpc.md). */
  readonly grpcStatus: GrpcStatus;
  readonly message: string;
}

export const ERROR_CATALOG = {
  // Authentication, scope, limits, request shape (TOKEN_SCOPE_INSUFFICIENT: CONTRACT 9.3)
  INVALID_API_TOKEN: { httpStatus: 401, grpcStatus: GrpcStatus.UNAUTHENTICATED, message: 'The API token is missing, malformed, unknown or revoked.' },
  TOKEN_BUSINESS_MISMATCH: { httpStatus: 403, grpcStatus: GrpcStatus.PERMISSION_DENIED, message: 'The API token does not belong to the business named in the path.' },
  TOKEN_SCOPE_INSUFFICIENT: { httpStatus: 403, grpcStatus: GrpcStatus.PERMISSION_DENIED, message: 'The API token lacks the scope this endpoint needs.' },
  RATE_LIMIT_EXCEEDED: { httpStatus: 429, grpcStatus: GrpcStatus.RESOURCE_EXHAUSTED, message: 'More than the allowed number of requests per minute; retry after Retry-After seconds.' },
  INVALID_REQUEST: { httpStatus: 400, grpcStatus: GrpcStatus.INVALID_ARGUMENT, message: 'The request does not match the expected schema.' },
  INVALID_CURSOR: { httpStatus: 400, grpcStatus: GrpcStatus.INVALID_ARGUMENT, message: 'The cursor is invalid or expired.' },
  BATCH_LIMIT_EXCEEDED: { httpStatus: 400, grpcStatus: GrpcStatus.INVALID_ARGUMENT, message: 'The action group exceeds the allowed size.' },
  // Conversations and contacts
  CONVERSATION_NOT_FOUND: { httpStatus: 404, grpcStatus: GrpcStatus.NOT_FOUND, message: 'The conversation reference resolves to no conversation in this business.' },
  CONTACT_NOT_FOUND: { httpStatus: 404, grpcStatus: GrpcStatus.NOT_FOUND, message: 'The contact reference resolves to no contact.' },
  PHONE_NUMBER_AMBIGUOUS: { httpStatus: 409, grpcStatus: GrpcStatus.ALREADY_EXISTS, message: 'Several contacts share this phone; use chat_user_id or uuid.' },
  USERNAME_AMBIGUOUS: { httpStatus: 409, grpcStatus: GrpcStatus.ALREADY_EXISTS, message: 'Several contacts share this username; use chat_user_id or uuid.' },
  CHANNEL_NOT_FOUND: { httpStatus: 404, grpcStatus: GrpcStatus.NOT_FOUND, message: 'The channel public key does not resolve.' },
  CHANNEL_NOT_CONFIGURED: { httpStatus: 422, grpcStatus: GrpcStatus.FAILED_PRECONDITION, message: 'The conversation has no chat channel configured.' },
  TESTER_CONVERSATION_NOT_WRITABLE: { httpStatus: 422, grpcStatus: GrpcStatus.FAILED_PRECONDITION, message: 'Real media cannot be sent to a tester conversation.' },
  TRANSCRIPTION_REQUIRED_TO_RESOLVE: { httpStatus: 422, grpcStatus: GrpcStatus.FAILED_PRECONDITION, message: 'Inbound media awaits transcription; an AI-attended conversation cannot be resolved yet.' },
  TRANSCRIPTION_REQUIRED: { httpStatus: 422, grpcStatus: GrpcStatus.FAILED_PRECONDITION, message: 'The media cannot be transcribed automatically and no transcription was given.' },
  // Tags
  TAG_NOT_FOUND: { httpStatus: 404, grpcStatus: GrpcStatus.NOT_FOUND, message: 'The tag does not exist in this business.' },
  TAG_ALREADY_ASSIGNED: { httpStatus: 409, grpcStatus: GrpcStatus.ALREADY_EXISTS, message: 'The tag is already on the conversation.' },
  TAG_NOT_ASSIGNED: { httpStatus: 404, grpcStatus: GrpcStatus.NOT_FOUND, message: 'The tag to remove is not on the conversation.' },
  TAG_AMBIGUOUS: { httpStatus: 409, grpcStatus: GrpcStatus.ALREADY_EXISTS, message: 'Several tags match the name; use tag uuid.' },
  TAG_BUSINESS_MISMATCH: { httpStatus: 400, grpcStatus: GrpcStatus.INVALID_ARGUMENT, message: 'The tag belongs to another business.' },
  CANNOT_ASSIGN_DEFAULT_TAG: { httpStatus: 422, grpcStatus: GrpcStatus.FAILED_PRECONDITION, message: 'A system-managed tag cannot be assigned.' },
  CANNOT_REMOVE_DEFAULT_TAG: { httpStatus: 422, grpcStatus: GrpcStatus.FAILED_PRECONDITION, message: 'A system-managed tag cannot be removed.' },
  // Mailboxes
  CATEGORY_NOT_FOUND: { httpStatus: 404, grpcStatus: GrpcStatus.NOT_FOUND, message: 'The mailbox category does not exist.' },
  CATEGORY_BUSINESS_MISMATCH: { httpStatus: 403, grpcStatus: GrpcStatus.PERMISSION_DENIED, message: 'The mailbox category belongs to another business.' },
  AMBIGUOUS_CATEGORY: { httpStatus: 409, grpcStatus: GrpcStatus.ALREADY_EXISTS, message: 'Several categories match; use category: { uuid }.' },
  MAILBOX_NOT_FOUND: { httpStatus: 404, grpcStatus: GrpcStatus.NOT_FOUND, message: 'The mailbox does not exist.' },
  MAILBOX_ALREADY_ASSIGNED: { httpStatus: 409, grpcStatus: GrpcStatus.ALREADY_EXISTS, message: 'The conversation is already in that mailbox.' },
  AMBIGUOUS_MAILBOX: { httpStatus: 409, grpcStatus: GrpcStatus.ALREADY_EXISTS, message: 'Several mailboxes match; use mailbox: { uuid }.' },
  NO_MAILBOXES_IN_CATEGORY: { httpStatus: 422, grpcStatus: GrpcStatus.FAILED_PRECONDITION, message: 'The category has no mailboxes.' },
  // Window, wallets, AI
  WINDOW_CLOSED: { httpStatus: 422, grpcStatus: GrpcStatus.FAILED_PRECONDITION, message: 'The 24-hour messaging window is closed; an approved template is needed.' },
  WALLET_BLOCKED: { httpStatus: 402, grpcStatus: GrpcStatus.FAILED_PRECONDITION, message: 'The token wallet of the AI employee is empty or blocked.' },
  VISION_WALLET_BLOCKED: { httpStatus: 402, grpcStatus: GrpcStatus.FAILED_PRECONDITION, message: 'The vision token wallet is empty.' },
  VISION_BLOCKED: { httpStatus: 402, grpcStatus: GrpcStatus.FAILED_PRECONDITION, message: 'The thread is blocked by vision: tokens exhausted, failed top-up, or media left without transcription.' },
  NO_AI_EMPLOYEE_ASSIGNED: { httpStatus: 422, grpcStatus: GrpcStatus.FAILED_PRECONDITION, message: 'No AI employee is assigned to the conversation.' },
  OWNER_MISMATCH: { httpStatus: 422, grpcStatus: GrpcStatus.FAILED_PRECONDITION, message: "The schedule executor differs from the conversation's current owner." },
  SCHEDULE_CONFLICT: { httpStatus: 409, grpcStatus: GrpcStatus.ABORTED, message: 'Concurrent schedule change, or reused scheduled_uuid; retry with a new scheduled_uuid or none.' },
  AI_EMPLOYEE_NOT_FOUND: { httpStatus: 404, grpcStatus: GrpcStatus.NOT_FOUND, message: 'The AI employee does not exist.' },
  AMBIGUOUS_AI_EMPLOYEE: { httpStatus: 409, grpcStatus: GrpcStatus.ALREADY_EXISTS, message: 'Several AI employees match; use ai_employee: { uuid }.' },
  AI_EMPLOYEE_ALREADY_ASSIGNED: { httpStatus: 409, grpcStatus: GrpcStatus.ALREADY_EXISTS, message: 'That AI employee is already assigned.' },
  INVALID_ASSIGNEE_FOR_RUN_AI: { httpStatus: 409, grpcStatus: GrpcStatus.FAILED_PRECONDITION, message: 'The conversation is human-owned and no ai_employee was given.' },
  AI_EXECUTION_FAILED: { httpStatus: 500, grpcStatus: GrpcStatus.INTERNAL, message: 'The AI run failed.' },
  ACTIONS_DEPTH_EXCEEDED: { httpStatus: 422, grpcStatus: GrpcStatus.FAILED_PRECONDITION, message: 'Chained AI actions exceed the maximum depth.' },
  SCHEDULED_MESSAGE_ACTION_REQUIRED: { httpStatus: 400, grpcStatus: GrpcStatus.INVALID_ARGUMENT, message: 'A schedule is pending; scheduled_message_action (reassign or cancel) is required.' },
  SCHEDULED_MESSAGE_ACTION_INVALID: { httpStatus: 400, grpcStatus: GrpcStatus.INVALID_ARGUMENT, message: 'scheduled_message_action must be reassign or cancel.' },
  // Files
  INVALID_FILE_TYPE: { httpStatus: 400, grpcStatus: GrpcStatus.INVALID_ARGUMENT, message: 'The file type is not allowed.' },
  FILE_TOO_LARGE: { httpStatus: 400, grpcStatus: GrpcStatus.INVALID_ARGUMENT, message: 'The file exceeds the size cap of its category.' },
  STORAGE_QUOTA_EXCEEDED: { httpStatus: 413, grpcStatus: GrpcStatus.RESOURCE_EXHAUSTED, message: 'The storage quota is reached, or storage is disabled.' },
  STORAGE_QUOTA_CLEANUP_INSUFFICIENT: { httpStatus: 507, grpcStatus: GrpcStatus.RESOURCE_EXHAUSTED, message: 'Storage is full and automatic cleanup freed too little.' },
  FILE_NOT_FOUND: { httpStatus: 404, grpcStatus: GrpcStatus.NOT_FOUND, message: 'The file does not exist, belongs to another business, or is not in the required state.' },
  FILE_NOT_UPLOADED: { httpStatus: 404, grpcStatus: GrpcStatus.NOT_FOUND, message: 'The file content never arrived, or is empty or partial; request a new upload.' },
  SIZE_MISMATCH: { httpStatus: 422, grpcStatus: GrpcStatus.FAILED_PRECONDITION, message: 'The uploaded size differs from the declared size.' },
  MIME_MISMATCH: { httpStatus: 400, grpcStatus: GrpcStatus.INVALID_ARGUMENT, message: 'The actual content type differs from the declared one.' },
  UPLOAD_FAILED: { httpStatus: 500, grpcStatus: GrpcStatus.INTERNAL, message: 'The file could not be stored.' },
  TOO_MANY_PENDING_UPLOADS: { httpStatus: 429, grpcStatus: GrpcStatus.RESOURCE_EXHAUSTED, message: 'Too many unconfirmed uploads; retry after Retry-After seconds.' },
  // Sending
  PREPARE_FAILED: { httpStatus: 500, grpcStatus: GrpcStatus.INTERNAL, message: 'The message could not be prepared.' },
  SEND_FAILED: { httpStatus: 502, grpcStatus: GrpcStatus.INTERNAL, message: 'Sending to the chat channel failed.' },
  BSUID_SEND_DISABLED: { httpStatus: 409, grpcStatus: GrpcStatus.FAILED_PRECONDITION, message: 'The contact has no phone and sending by platform user id is not enabled.' },
  // Payment markers
  PAYMENT_MARKER_UNKNOWN: { httpStatus: 422, grpcStatus: GrpcStatus.FAILED_PRECONDITION, message: 'The text holds a payment marker that is not in the catalog.' },
  PAYMENT_MARKER_DATA_UNAVAILABLE: { httpStatus: 422, grpcStatus: GrpcStatus.FAILED_PRECONDITION, message: 'No value is available for the payment marker in this conversation.' },
  PAYMENT_MARKER_UNSUPPORTED_FIELD: { httpStatus: 422, grpcStatus: GrpcStatus.FAILED_PRECONDITION, message: 'Payment markers work only in a message body or template body variables.' },
  PAYMENT_MARKER_NOT_ALLOWED_IN_TEMPLATE: { httpStatus: 400, grpcStatus: GrpcStatus.INVALID_ARGUMENT, message: 'Payment markers are not allowed in this template field.' },
  PAYMENT_PROFILE_GENERATION_FAILED: { httpStatus: 500, grpcStatus: GrpcStatus.INTERNAL, message: 'Generating the payment details failed.' },
  PAYMENT_NOT_FOUND: { httpStatus: 404, grpcStatus: GrpcStatus.NOT_FOUND, message: 'No payment exists for that payment uuid.' },
  // Quick replies and templates
  TEMPLATE_BODY_TOO_LONG: { httpStatus: 422, grpcStatus: GrpcStatus.FAILED_PRECONDITION, message: 'The template body exceeds 1024 characters after interpolation.' },
  QUICK_REPLY_NOT_FOUND: { httpStatus: 404, grpcStatus: GrpcStatus.NOT_FOUND, message: 'The quick reply does not exist.' },
  QUICK_REPLY_AMBIGUOUS: { httpStatus: 409, grpcStatus: GrpcStatus.ALREADY_EXISTS, message: 'Several quick replies match; use quick_reply: { uuid }.' },
  QUICK_REPLY_EMPTY: { httpStatus: 422, grpcStatus: GrpcStatus.FAILED_PRECONDITION, message: 'The quick reply has no actions.' },
  TEMPLATE_NOT_FOUND: { httpStatus: 404, grpcStatus: GrpcStatus.NOT_FOUND, message: 'The template does not exist.' },
  TEMPLATE_NOT_APPROVED: { httpStatus: 422, grpcStatus: GrpcStatus.FAILED_PRECONDITION, message: 'The template is not approved by the channel provider.' },
  AUTH_TEMPLATE_REQUIRES_PHONE: { httpStatus: 409, grpcStatus: GrpcStatus.FAILED_PRECONDITION, message: 'An authentication template needs a contact with a phone.' },
  TEMPLATE_AMBIGUOUS: { httpStatus: 409, grpcStatus: GrpcStatus.ALREADY_EXISTS, message: 'The same template name and language exist on several connected channels.' },
  TEMPLATE_VARIABLES_INVALID: { httpStatus: 422, grpcStatus: GrpcStatus.FAILED_PRECONDITION, message: 'Wrong variable count, missing index or empty value.' },
  TEMPLATE_HEADER_MISMATCH: { httpStatus: 400, grpcStatus: GrpcStatus.INVALID_ARGUMENT, message: 'The header type differs from what the template declares.' },
  TEMPLATE_HEADER_TRANSCRIPTION_MISSING: { httpStatus: 422, grpcStatus: GrpcStatus.FAILED_PRECONDITION, message: 'The template media header cannot be transcribed and header.transcription is missing.' },
  TEMPLATE_FAKE_REQUIRES_TESTER_CONVERSATION: { httpStatus: 422, grpcStatus: GrpcStatus.FAILED_PRECONDITION, message: 'A test-only template can only be sent to a tester conversation.' },
  // Generic failures
  FETCH_FAILED: { httpStatus: 500, grpcStatus: GrpcStatus.INTERNAL, message: 'Required data could not be loaded.' },
  UPDATE_FAILED: { httpStatus: 500, grpcStatus: GrpcStatus.INTERNAL, message: 'The change could not be applied.' },
  UNKNOWN_ERROR: { httpStatus: 500, grpcStatus: GrpcStatus.INTERNAL, message: 'Unexpected error.' },
  // CONTRACT additions
  NOT_FOUND: { httpStatus: 404, grpcStatus: GrpcStatus.NOT_FOUND, message: 'No such path.' },
  METHOD_NOT_ALLOWED: { httpStatus: 405, grpcStatus: GrpcStatus.UNIMPLEMENTED, message: 'This method is not allowed on this path.' },
  IDEMPOTENCY_KEY_REUSED: { httpStatus: 409, grpcStatus: GrpcStatus.ALREADY_EXISTS, message: 'This Idempotency-Key was already used with another request body.' },
  // Project additions (docs/errors.md)
  IDEMPOTENCY_REQUEST_IN_PROGRESS: { httpStatus: 409, grpcStatus: GrpcStatus.ABORTED, message: 'A request with this Idempotency-Key is still being processed; retry shortly.' },
  SCHEDULED_MESSAGE_NOT_FOUND: { httpStatus: 404, grpcStatus: GrpcStatus.NOT_FOUND, message: 'The scheduled message does not exist in this business.' },
  ACTION_GROUP_NOT_FOUND: { httpStatus: 404, grpcStatus: GrpcStatus.NOT_FOUND, message: 'The action group does not exist in this business.' },
  CHAT_USER_ID_AMBIGUOUS: { httpStatus: 409, grpcStatus: GrpcStatus.ALREADY_EXISTS, message: 'Several contacts on different channels share this chat_user_id; add channel to the reference.' },
  NOT_A_TESTER_CONVERSATION: { httpStatus: 422, grpcStatus: GrpcStatus.FAILED_PRECONDITION, message: 'The conversation is not a tester conversation.' },
  INVALID_WEBHOOK_SIGNATURE: { httpStatus: 401, grpcStatus: GrpcStatus.UNAUTHENTICATED, message: 'The webhook signature is missing or does not match.' },
  SERVICE_UNAVAILABLE: { httpStatus: 503, grpcStatus: GrpcStatus.UNAVAILABLE, message: 'A dependency is unavailable; retry with backoff.' },
  // CONTRACT 9: webhook endpoints and events. The endpoint limit is ALREADY_EXISTS (409 in the grpc-gateway
  // table), not RESOURCE_EXHAUSTED (429): waiting does not lift it.
  WEBHOOK_ENDPOINT_NOT_FOUND: { httpStatus: 404, grpcStatus: GrpcStatus.NOT_FOUND, message: 'The webhook endpoint does not exist in this business.' },
  WEBHOOK_ENDPOINT_LIMIT_REACHED: { httpStatus: 409, grpcStatus: GrpcStatus.ALREADY_EXISTS, message: 'The business has the maximum number of webhook endpoints; delete one first.' },
  EVENT_NOT_FOUND: { httpStatus: 404, grpcStatus: GrpcStatus.NOT_FOUND, message: 'The event does not exist in this business (or is older than 30 days), or the endpoint never had it.' },
  // CONTRACT 10: contacts, consent, starting conversations, broadcasts, the send engine. Provider outcomes
  // (10.3) keep the Cloud API's code beside these on the message error as provider_code.
  CONTACT_IDENTIFIER_CONFLICT: { httpStatus: 409, grpcStatus: GrpcStatus.ALREADY_EXISTS, message: 'The identifiers given match two different contacts.' },
  ATTRIBUTE_LIMIT_REACHED: { httpStatus: 409, grpcStatus: GrpcStatus.ALREADY_EXISTS, message: 'The business has the maximum number of contact attribute definitions (100); delete one first.' },
  ATTRIBUTE_ALREADY_DEFINED: { httpStatus: 409, grpcStatus: GrpcStatus.ALREADY_EXISTS, message: 'A contact attribute with this key is already defined.' },
  ATTRIBUTE_UNDEFINED: { httpStatus: 422, grpcStatus: GrpcStatus.FAILED_PRECONDITION, message: 'No contact attribute is defined with this key.' },
  CONTACT_OPTED_OUT: { httpStatus: 409, grpcStatus: GrpcStatus.FAILED_PRECONDITION, message: 'The contact opted out of this category of messages.' },
  RECIPIENT_UNDELIVERABLE: { httpStatus: 422, grpcStatus: GrpcStatus.FAILED_PRECONDITION, message: 'The chat platform cannot deliver to this recipient.' },
  MARKETING_LIMIT_REACHED: { httpStatus: 422, grpcStatus: GrpcStatus.FAILED_PRECONDITION, message: 'The recipient reached the chat platform\'s cap of marketing messages.' },
  RECIPIENT_IN_EXPERIMENT: { httpStatus: 422, grpcStatus: GrpcStatus.FAILED_PRECONDITION, message: 'The recipient is in a chat platform experiment that withholds marketing messages.' },
  MESSAGING_LIMIT_REACHED: { httpStatus: 429, grpcStatus: GrpcStatus.RESOURCE_EXHAUSTED, message: 'The channel reached its messaging limit of contacts reached in 24 hours; retry after Retry-After seconds.' },
  BROADCAST_NOT_FOUND: { httpStatus: 404, grpcStatus: GrpcStatus.NOT_FOUND, message: 'The broadcast does not exist in this business.' },
  BROADCAST_STATE_CONFLICT: { httpStatus: 409, grpcStatus: GrpcStatus.FAILED_PRECONDITION, message: 'The broadcast is not in a state this transition applies to.' },
} as const satisfies Record<string, CatalogEntry>;

export type ErrorCode = keyof typeof ERROR_CATALOG;

export const ERROR_CODES = Object.keys(ERROR_CATALOG) as ErrorCode[];

export function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === 'string' && Object.prototype.hasOwnProperty.call(ERROR_CATALOG, value);
}
