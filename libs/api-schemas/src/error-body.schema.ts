import { ERROR_CODES } from '@cmsg/errors';
import { z } from './zod';

export const ErrorBodySchema = z
  .object({
    code: z.enum(ERROR_CODES).openapi({ description: 'Stable identifier; clients match on it. New codes may be added.' }),
    message: z.string().openapi({ description: 'English human text; may change without notice.' }),
    provider_code: z
      .string()
      .nullable()
      .optional()
      .openapi({ description: "Only on a send's failure: the chat platform's error code (e.g. \"131026\"), null when it gave none (CONTRACT 10.3)." }),
  })
  .openapi('ErrorBody', { description: 'The body of every error response, from every layer.' });

/** Why an outbound message failed, as its timeline item shows it: always with provider_code. */
export const SendErrorSchema = z
  .object({
    code: ErrorBodySchema.shape.code,
    message: ErrorBodySchema.shape.message,
    provider_code: z.string().nullable().openapi({ description: "The chat platform's error code (e.g. \"131026\"); null when the failure had none." }),
  })
  .openapi('SendError', { description: 'A failed send: the catalog code (provider codes mapped as docs/messaging.md "Provider outcomes" says) and the provider\'s own code.' });

export type ErrorBodyPayload = z.infer<typeof ErrorBodySchema>;
