import { ActionObjectRefSchema, TemplateButtonParameterSchema, TemplateHeaderSchema, TemplateVariableSchema } from './action-objects.schema';
import { UuidSchema } from './common.schema';
import { z } from './zod';

/*
 * The pieces of a message send shared by the individual message endpoints and the action group's
 * send_message / send_quick_reply_or_template actions (CONTRACT 4), so both validate alike. The
 * variable, header and button-parameter items were first written with the action objects and are
 * defined there once; they are re-exported here under the send's names. Whichever file ends up
 * holding them, only one may define them and the other must import (never both ways: a cycle).
 */

export { TemplateVariableSchema, TemplateHeaderSchema, TemplateButtonParameterSchema };

/** SPEC 8: free-form message text (with a file, its caption). */
export const MessageTextSchema = z
  .string()
  .min(1)
  .max(4096)
  .openapi({ description: 'Message text, 1 to 4096 characters; payment markers such as [[payment.link]] are replaced before sending.' });

/** SPEC 8: a media transcription supplied by the sender. */
export const TranscriptionSchema = z.string().max(4096).openapi({ description: 'What the media says, up to 4096 characters.' });

/** `{uuid}` or `{name}` (case-insensitive; a name matching several is QUICK_REPLY_AMBIGUOUS). */
export const QuickReplyReferenceSchema = ActionObjectRefSchema;

export const TemplateReferenceSchema = z
  .object({ uuid: UuidSchema.optional(), name: z.string().min(1).max(512).optional(), language: z.string().min(2).max(16).optional() })
  .refine((reference) => reference.uuid !== undefined || (reference.name !== undefined && reference.language !== undefined), {
    message: 'uuid, or name and language, is required',
  })
  .openapi('TemplateReference', {
    description:
      "A template by uuid, or by name and language. When that name and language exist on several channels the conversation's channel decides; otherwise TEMPLATE_AMBIGUOUS.",
    anyOf: [{ required: ['uuid'] }, { required: ['name', 'language'] }],
  });

/** The fields of a template send beside its reference, to spread into a request object. */
export const templateSendFields = {
  template: TemplateReferenceSchema,
  variables: z
    .array(TemplateVariableSchema)
    .max(100)
    .default([])
    .openapi({ description: 'Values of {{1}}..{{n}}: exactly as many as the template has, each index once. Payment markers in values are sent as written in 0.2.0.' }),
  header: TemplateHeaderSchema.optional().openapi({
    description:
      'Must match the header the template declares: none without one, required for a media header, optional for a text header (omitted: the header text is static).',
  }),
  button_parameters: z
    .array(TemplateButtonParameterSchema)
    .max(10)
    .default([])
    .openapi({ description: 'Suffixes of the template\'s URL buttons, by 0-based button position.' }),
};

export type QuickReplyReference = z.infer<typeof QuickReplyReferenceSchema>;
export type TemplateReference = z.infer<typeof TemplateReferenceSchema>;
export type TemplateVariable = z.infer<typeof TemplateVariableSchema>;
export type TemplateHeader = z.infer<typeof TemplateHeaderSchema>;
export type TemplateButtonParameter = z.infer<typeof TemplateButtonParameterSchema>;
