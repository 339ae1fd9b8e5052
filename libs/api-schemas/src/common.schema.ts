import { z } from './zod';

/** 8-4-4-4-12 hex digits, nothing around them (the `uuid` format alone also admits a `urn:uuid:` prefix). */
const UUID_PATTERN = '^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$';

/**
 * Any 8-4-4-4-12 hex id. Deliberately not limited to RFC 9562 versions: whether an id names
 * something is the owning service's answer (a 404), not a shape error.
 */
export const UuidSchema = z.guid().openapi({ format: 'uuid', pattern: UUID_PATTERN, example: '3f2b8c1e-6a4d-4e0b-9c7a-1d2e3f4a5b6c' });

export const DateTimeSchema = z.iso.datetime().openapi({ example: '2025-01-31T18:04:05.000Z' });

/**
 * `schema | null` for a registered component. `.nullable()` on a registered schema would make the
 * shared component itself nullable in the generated document.
 */
export function nullable<Schema extends z.ZodType>(schema: Schema) {
  return z.union([schema, z.null()]);
}

export const NamedRefSchema = z.object({ uuid: UuidSchema, name: z.string() }).openapi('NamedRef');

export const TagSchema = z.object({ uuid: UuidSchema, name: z.string(), color: z.string() }).openapi('Tag');

export const ConversationIdSchema = z.object({ uuid: UuidSchema }).openapi('ConversationId');

export const InboxStatusSchema = z.enum(['pending', 'resolved']).openapi('InboxStatus');

export type NamedRef = z.infer<typeof NamedRefSchema>;
export type Tag = z.infer<typeof TagSchema>;
export type InboxStatus = z.infer<typeof InboxStatusSchema>;

/** A conversation's contact as a list item and the conversation.created event show it. */
export const ContactSummarySchema = z.object({
  uuid: UuidSchema,
  name: z.string().nullable(),
  profile_name: z.string().nullable(),
  phone: z.string().nullable(),
  chat_user_id: z.string().nullable(),
});
