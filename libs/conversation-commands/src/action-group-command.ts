import { ACTION_GROUP_LIMITS, ActionSchema, isAiTriggeringAction } from '@cmsg/api-schemas';
import { z } from 'zod';

/** Where a group came from: POST /conversation/actions or POST /conversation/run-ai. */
export const ACTION_GROUP_SOURCES = ['action_group', 'run_ai'] as const;
export type ActionGroupSource = (typeof ACTION_GROUP_SOURCES)[number];

/**
 * One accepted action group on the conversation-commands topic: everything needed to run it, so a
 * crash after producing it loses nothing. The actions are the public action objects, validated
 * again here: a command is valid whoever produced it.
 */
export const ActionGroupCommandSchema = z.object({
  kind: z.literal('action_group'),
  group_uuid: z.uuid(),
  business_id: z.string().min(1),
  token_uuid: z.string(),
  request_id: z.string().nullable(),
  conversation_uuid: z.uuid(),
  source: z.enum(ACTION_GROUP_SOURCES),
  depth: z.number().int().min(0),
  stop_on_error: z.boolean(),
  escalate_on_error: z.boolean(),
  actions: z
    .array(ActionSchema)
    .min(1)
    .max(ACTION_GROUP_LIMITS.maxActions)
    .refine((actions) => actions.filter(isAiTriggeringAction).length <= ACTION_GROUP_LIMITS.maxAiTriggeringActions, {
      message: `at most ${ACTION_GROUP_LIMITS.maxAiTriggeringActions} AI-triggering actions`,
    }),
  created_at: z.iso.datetime(),
  /**
   * An AI run that answers a customer message (inbound webhook): it answers only while that message
   * is still the conversation's newest and the conversation still wants an automatic reply.
   */
  in_reply_to_message_uuid: z.string().min(1).optional(),
});

export type ActionGroupCommand = z.infer<typeof ActionGroupCommandSchema>;

/** Builds (or decodes) a command; throws a ZodError naming every invalid field. */
export function createActionGroupCommand(fields: Omit<ActionGroupCommand, 'kind'>): ActionGroupCommand {
  return ActionGroupCommandSchema.parse({ kind: 'action_group', ...fields });
}
