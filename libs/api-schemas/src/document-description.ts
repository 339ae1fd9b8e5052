import { WELL_FORMED_UNICODE_FORMAT } from './text.schema';

/** info.description of the OpenAPI document: what every operation shares, and the rules its schemas name but cannot spell out. */
export const DOCUMENT_DESCRIPTION = [
  'REST API of the business messaging inbox. Every request is scoped to the business named by {slug}; every error body is {code, message}; every response carries X-Request-Id and X-Api-Version.',
  '',
  'How-to guides are served beside this reference at [/docs/guides](/docs/guides) (start with [Integrating](/docs/guides/integrating)).',
  '',
  '## Rules beyond the schemas',
  '',
  `- **Format \`${WELL_FORMED_UNICODE_FORMAT}\`** (every free text): a string with a UTF-8 form, that is without an unpaired UTF-16 surrogate. JSON can carry one only as an escape such as \`"\\ud800"\`; it is refused with 400 INVALID_REQUEST, because the text could not be stored and returned as sent (RFC 7493, I-JSON, section 2.1).`,
  '- **Pattern of required text**: one character that is not whitespace, anywhere (whitespace as ECMAScript\'s `\\s`: tab, line feed, vertical tab, form feed, carriage return, space, U+00A0, U+1680, U+2000 to U+200A, U+2028, U+2029, U+202F, U+205F, U+3000, U+FEFF). Text of whitespace only is 400 INVALID_REQUEST.',
  "- **References** (a conversation, contact, tag, mailbox, file, broadcast, any uuid or key in a path or body) resolve inside the token's business only: one that names nothing there, or something of another business, is the 404 of that kind (CONVERSATION_NOT_FOUND, TAG_NOT_FOUND, ...), never a 403, so a business cannot learn another's identifiers. A well-formed request with made-up references is therefore mostly answered 404.",
  '- **Cursors** are signed, expire after 24 h and are bound to the endpoint, order and filters of the request that returned them: an altered or expired cursor, or one sent with other filters, is 400 INVALID_CURSOR.',
  '- **Webhook endpoint URLs** must be https on a host whose every address is public (WEBHOOK_ALLOW_PRIVATE_URLS=true deployments also take http and private hosts); any other URL is 400 INVALID_REQUEST.',
  '- **State**: an operation that the current state of what it acts on does not allow is a 409 whose code names the conflict (BROADCAST_STATE_CONFLICT, SCHEDULE_CONFLICT, ...), or the 4xx its operation lists.',
  '- **Rate limit**: 60 requests a minute per token (X-RateLimit-* headers on every answer); above it, 429 RATE_LIMIT_EXCEEDED with Retry-After.',
].join('\n');
