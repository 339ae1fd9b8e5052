import { ConversationIdSchema, TagSchema, nullable } from './common.schema';
import { ConversationReferenceSchema } from './conversation-reference.schema';
import { ErrorBodySchema } from './error-body.schema';
import { objectReferenceSchema } from './object-reference.schema';
import { z } from './zod';

export const MAX_TAGS_PER_REQUEST = 50;

export const TagReferenceSchema = objectReferenceSchema('TagReference', 'tag');

export const TagChangeRequestSchema = z
  .object({
    conversation: ConversationReferenceSchema,
    tags: z.array(TagReferenceSchema).min(1).max(MAX_TAGS_PER_REQUEST).openapi({ description: `1 to ${MAX_TAGS_PER_REQUEST} tag references, each judged on its own.` }),
  })
  .openapi('TagChangeRequest');

export const TagChangeResponseSchema = z
  .object({
    conversation: ConversationIdSchema,
    tags: z.array(TagSchema).openapi({ description: "The conversation's tags after the change." }),
  })
  .openapi('TagChangeResponse');

export const TagChangeResultStatusSchema = z.enum(['assigned', 'removed', 'failed']).openapi('TagChangeResultStatus');

export const TagChangeResultSchema = z
  .object({
    requested: z.object({ uuid: z.string().optional(), name: z.string().optional() }).openapi({ description: 'The tag reference as sent.' }),
    tag: nullable(TagSchema).openapi({ description: 'The tag it resolved to; null when it did not resolve.' }),
    status: TagChangeResultStatusSchema,
    error: nullable(ErrorBodySchema).openapi({ description: 'Why this tag failed; null unless status is failed.' }),
  })
  .openapi('TagChangeResult');

/** The 207 body: some tags applied, some failed. Documented in the endpoint description. */
export const TagChangeMultiStatusSchema = z
  .object({
    conversation: ConversationIdSchema,
    tags: z.array(TagSchema),
    results: z.array(TagChangeResultSchema).openapi({ description: 'One result per requested tag, in request order.' }),
  })
  .openapi('TagChangeMultiStatus');

export type TagChangeRequest = z.infer<typeof TagChangeRequestSchema>;
export type TagChangeResponse = z.infer<typeof TagChangeResponseSchema>;
export type TagChangeResult = z.infer<typeof TagChangeResultSchema>;
export type TagChangeMultiStatus = z.infer<typeof TagChangeMultiStatusSchema>;
