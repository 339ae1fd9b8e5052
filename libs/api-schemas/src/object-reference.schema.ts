import { UuidSchema } from './common.schema';
import { z } from './zod';
import { requiredText } from './text.schema';

export const MAX_OBJECT_NAME_LENGTH = 255;

/**
 * `{uuid}` or `{name}` naming a business object (CONTRACT 4). When both are sent the uuid wins,
 * as in the conversation reference. Names compare trimmed and case-insensitively; a name matching
 * several objects is the kind's ambiguity code.
 */
export function objectReferenceSchema(component: string, kind: string) {
  return z
    .object({
      uuid: UuidSchema.optional().openapi({ description: `The ${kind} uuid; wins over name.` }),
      name: requiredText(MAX_OBJECT_NAME_LENGTH).optional().openapi({ description: `The ${kind} name, case-insensitive.` }),
    })
    .refine((ref) => ref.uuid !== undefined || ref.name !== undefined, { message: 'one of uuid or name is required' })
    .openapi(component, {
      description: `Names a ${kind} of the token's business by uuid or by name.`,
      anyOf: [{ required: ['uuid'] }, { required: ['name'] }],
    });
}

export type ObjectReference = { uuid?: string; name?: string };
