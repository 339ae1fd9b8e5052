import { RunAiActionSchema } from '@cmsg/api-schemas';
import { z } from 'zod';
import { ActionGroupCommandSchema } from './action-group-command';

/**
 * A background AI run (after a customer message, real or simulated): an action group of one
 * run_ai action with the defaults of POST /conversation/run-ai, so the runner executes it like any
 * other group, in order with the conversation's other commands.
 */
export const AiRunCommandSchema = ActionGroupCommandSchema.extend({
  source: z.literal('run_ai'),
  actions: z.tuple([RunAiActionSchema]),
});

export type AiRunCommand = z.infer<typeof AiRunCommandSchema>;

export type AiRunCommandFields = Pick<AiRunCommand, 'group_uuid' | 'business_id' | 'token_uuid' | 'request_id' | 'conversation_uuid' | 'created_at' | 'in_reply_to_message_uuid'>;

/** Builds (or decodes) an AI run of the assigned AI employee; throws a ZodError naming every invalid field. */
export function createAiRunCommand(fields: AiRunCommandFields): AiRunCommand {
  return AiRunCommandSchema.parse({
    kind: 'action_group',
    source: 'run_ai',
    depth: 0,
    stop_on_error: true,
    escalate_on_error: true,
    actions: [{ type: 'run_ai' }],
    ...fields,
  });
}
