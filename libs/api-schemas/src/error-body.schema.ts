import { ERROR_CODES } from '@cmsg/errors';
import { z } from './zod';

export const ErrorBodySchema = z
  .object({
    code: z.enum(ERROR_CODES).openapi({ description: 'Stable identifier; clients match on it. New codes may be added.' }),
    message: z.string().openapi({ description: 'English human text; may change without notice.' }),
  })
  .openapi('ErrorBody', { description: 'The body of every error response, from every layer.' });

export type ErrorBodyPayload = z.infer<typeof ErrorBodySchema>;
