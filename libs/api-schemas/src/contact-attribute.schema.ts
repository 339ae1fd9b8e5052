import { DateTimeSchema } from './common.schema';
import { z } from './zod';

export const ATTRIBUTE_TYPES = ['text', 'number', 'boolean', 'date', 'list'] as const;

const AttributeKeySchema = z
  .string()
  .regex(/^[a-z][a-z0-9_]{0,39}$/, { message: 'must match ^[a-z][a-z0-9_]{0,39}$' })
  .openapi({ description: 'Lowercase letters, digits and _, starting with a letter, at most 40 characters.', example: 'plan' });

const ListOptionsSchema = z
  .array(z.string().min(1).max(100))
  .min(1)
  .max(50)
  .refine((options) => new Set(options).size === options.length, { message: 'options must be distinct' })
  .openapi({ uniqueItems: true, description: 'The allowed values of a list attribute: 1 to 50 distinct strings.' });

/** A list attribute needs its options; the other types take none. */
export const DefineContactAttributeRequestSchema = z
  .union([
    z.object({ key: AttributeKeySchema, type: z.literal('list'), options: ListOptionsSchema }),
    z.object({
      key: AttributeKeySchema,
      type: z.enum(['text', 'number', 'boolean', 'date']),
      options: z.never({ error: 'only a list attribute takes options' }).optional().openapi({ type: 'string', not: {}, description: 'Only for a list attribute: sending it with another type is 400.' }),
    }),
  ])
  .openapi('DefineContactAttributeRequest');

export const ContactAttributeDefinitionSchema = z
  .object({ key: z.string(), type: z.enum(ATTRIBUTE_TYPES), options: z.array(z.string()), created_at: DateTimeSchema })
  .openapi('ContactAttributeDefinition');

export const ContactAttributeListResponseSchema = z.object({ items: z.array(ContactAttributeDefinitionSchema) }).openapi('ContactAttributeList');

export const ContactAttributeParamsSchema = z.object({ key: AttributeKeySchema });


export type ContactAttributeDefinition = z.infer<typeof ContactAttributeDefinitionSchema>;
