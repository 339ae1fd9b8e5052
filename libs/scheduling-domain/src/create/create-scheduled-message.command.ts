import { CreateScheduledMessageRequestSchema, type CreateScheduledMessageRequest } from '@cmsg/api-schemas';
import { CatalogError } from '@cmsg/errors';
import type { Caller } from '@cmsg/proto';

export interface CreateScheduledMessageCommand {
  caller: Caller;
  request: CreateScheduledMessageRequest;
}

/**
 * Validates a create request with the public schema (the gateway's own), so a command is valid
 * whoever builds it: the gRPC handler, a benchmark, another service.
 */
export function createScheduledMessageCommand(caller: Caller, body: unknown): CreateScheduledMessageCommand {
  if (!caller.business_id) throw new CatalogError('INVALID_REQUEST', 'Invalid request: caller.business_id is required.');
  const parsed = CreateScheduledMessageRequestSchema.safeParse(body);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `${issue.path.length > 0 ? issue.path.join('.') : 'body'}: ${issue.message}`);
    throw new CatalogError('INVALID_REQUEST', `Invalid request: ${problems.join('; ')}.`);
  }
  return { caller, request: parsed.data };
}
