import { DateTimeSchema } from './common.schema';
import { z } from './zod';

export const ATTRIBUTE_TYPES = ['text', 'number', 'boolean', 'date', 'list'] as const;

const AttributeKeySchema = z
  .string()
  .regex(/^[a-z][a-z0-9_]{0,39}$/, { message: 'must match ^[a-z][a-z0-9_]{0,39}$' })
  .openapi({ description: 'Lowercase letters, digits and _, starting with a letter, at most 40 characters.', example: 'plan' });

export const DefineContactAttributeRequestSchema = z
  .object({
    key: AttributeKeySchema,
    type: z.enum(ATTRIBUTE_TYPES),
    options: z
      .array(z.string().min(1).max(100))
      .min(1)
      .max(50)
      .optional()
      .openapi({ description: 'The allowed values of a `list` attribute (1 to 50 distinct strings); only for `list`.' }),
  })
  .superRefine((definition, context) => {
    if (definition.type === 'list' && definition.options === undefined) context.addIssue({ code: 'custom', path: ['options'], message: 'a list attribute needs options' });
    if (definition.type !== 'list' && definition.options !== undefined) context.addIssue({ code: 'custom', path: ['options'], message: 'only a list attribute takes options' });
    if (definition.options && new Set(definition.options).size !== definition.options.length) context.addIssue({ code: 'custom', path: ['options'], message: 'options must be distinct' });
  })
  .openapi('DefineContactAttributeRequest');

export const ContactAttributeDefinitionSchema = z
  .object({ key: z.string(), type: z.enum(ATTRIBUTE_TYPES), options: z.array(z.string()), created_at: DateTimeSchema })
  .openapi('ContactAttributeDefinition');

export const ContactAttributeListResponseSchema = z.object({ items: z.array(ContactAttributeDefinitionSchema) }).openapi('ContactAttributeList');

export const ContactAttributeParamsSchema = z.object({ key: AttributeKeySchema });


export type ContactAttributeDefinition = z.infer<typeof ContactAttributeDefinitionSchema>;
