import { UuidSchema } from './common.schema';
import { objectReferenceSchema } from './object-reference.schema';
import { z } from './zod';
import { requiredText, wellFormedText } from './text.schema';

/*
 * The pieces of a message send, defined once here and used by the individual message endpoints
 * and by the action group's send_message / send_quick_reply_or_template actions (CONTRACT 4), so
 * both validate alike. action-objects.schema.ts imports from this file, never the other way.
 */

/** SPEC 8: free-form message text (with a file, its caption). */
export const MessageTextSchema = requiredText(4096).openapi({
  description: 'Message text, 1 to 4096 characters, not whitespace only, stored exactly as sent; payment markers such as [[payment.link]] are replaced before sending.',
});

/** SPEC 8: a media transcription supplied by the sender. */
export const TranscriptionSchema = wellFormedText(4096).openapi({ description: 'What the media says, up to 4096 characters.' });

/** `{uuid}` or `{name}` (case-insensitive; a name matching several is QUICK_REPLY_AMBIGUOUS). */
export const QuickReplyReferenceSchema = objectReferenceSchema('QuickReplyReference', 'quick reply');

/** SPEC 8 leaves the counts open; these bound what one send carries (and keep every index an int32 on the wire). */
export const MAX_TEMPLATE_VARIABLES = 100;
export const MAX_TEMPLATE_BUTTON_PARAMETERS = 10;

export const TemplateVariableSchema = z.object({ index: z.number().int().min(1).max(MAX_TEMPLATE_VARIABLES), value: wellFormedText().min(1) }).openapi('TemplateVariable');

export const TemplateHeaderSchema = z
  .discriminatedUnion('type', [
    z.object({ type: z.literal('text'), value: wellFormedText().min(1) }),
    z.object({ type: z.literal('image'), file_uuid: UuidSchema, transcription: TranscriptionSchema.optional() }),
    z.object({ type: z.literal('video'), file_uuid: UuidSchema, transcription: TranscriptionSchema.optional() }),
    z.object({ type: z.literal('document'), file_uuid: UuidSchema, transcription: TranscriptionSchema.optional() }),
  ])
  .openapi('TemplateHeader', { description: 'Media headers take a confirmed file; `transcription` is needed when the media cannot be transcribed.' });

export const TemplateButtonParameterSchema = z
  .object({ index: z.number().int().min(0).max(MAX_TEMPLATE_BUTTON_PARAMETERS - 1), sub_type: z.literal('url'), value: wellFormedText().min(1) })
  .openapi('TemplateButtonParameter');

/** How a template is named: by uuid, or by name and language. */
export const templateReferenceFields = {
  uuid: UuidSchema.optional(),
  name: requiredText(512).optional(),
  language: z.string().min(2).max(16).optional(),
};

export const TEMPLATE_REFERENCE_MESSAGE = 'uuid, or name and language, is required';

export function isCompleteTemplateReference(reference: { uuid?: string; name?: string; language?: string }): boolean {
  return reference.uuid !== undefined || (reference.name !== undefined && reference.language !== undefined);
}

export const TemplateReferenceSchema = z
  .object(templateReferenceFields)
  .refine(isCompleteTemplateReference, { message: TEMPLATE_REFERENCE_MESSAGE })
  .openapi('TemplateReference', {
    description:
      "A template by uuid, or by name and language. When that name and language exist on several channels the conversation's channel decides; otherwise TEMPLATE_AMBIGUOUS.",
    anyOf: [{ required: ['uuid'] }, { required: ['name', 'language'] }],
  });

/** A template send's parameters, beside its reference. */
export const templateParameterFields = {
  variables: z
    .array(TemplateVariableSchema)
    .max(MAX_TEMPLATE_VARIABLES)
    .default([])
    .openapi({ description: 'Values of {{1}}..{{n}}: exactly as many as the template has, each index once. Payment markers in values are sent as written in 0.2.0.' }),
  header: TemplateHeaderSchema.optional().openapi({
    description:
      'Must match the header the template declares: none without one, required for a media header, optional for a text header (omitted: the header text is static).',
  }),
  button_parameters: z
    .array(TemplateButtonParameterSchema)
    .max(MAX_TEMPLATE_BUTTON_PARAMETERS)
    .default([])
    .openapi({ description: 'Suffixes of the template\'s URL buttons, by 0-based button position.' }),
};

/** The fields of a template send, to spread into a request object. */
export const templateSendFields = { template: TemplateReferenceSchema, ...templateParameterFields };

export type QuickReplyReference = z.infer<typeof QuickReplyReferenceSchema>;
export type TemplateReference = z.infer<typeof TemplateReferenceSchema>;
export type TemplateVariable = z.infer<typeof TemplateVariableSchema>;
export type TemplateHeader = z.infer<typeof TemplateHeaderSchema>;
export type TemplateButtonParameter = z.infer<typeof TemplateButtonParameterSchema>;
