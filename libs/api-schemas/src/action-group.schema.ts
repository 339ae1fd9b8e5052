import { ACTION_GROUP_LIMITS, assertActionGroupLimits } from './action-group-limits';
import { ACTION_TYPES, ActionSchema, AiPromptSchema } from './action-objects.schema';
import { AiEmployeeReferenceSchema } from './ai-assignment.schema';
import { ConversationIdSchema, DateTimeSchema, UuidSchema, nullable } from './common.schema';
import { ConversationReferenceSchema } from './conversation-reference.schema';
import { ErrorBodySchema } from './error-body.schema';
import { jsonSchemaKeywords, z } from './zod';

const ActionGroupBodySchema = z
  .object({
    conversation: ConversationReferenceSchema,
    actions: z
      .array(ActionSchema)
      .min(1)
      .max(ACTION_GROUP_LIMITS.maxActions)
      .openapi({
        description: `1 to ${ACTION_GROUP_LIMITS.maxActions} actions run in array order, at most ${ACTION_GROUP_LIMITS.maxAiTriggeringActions} of them AI-triggering (more: 400 BATCH_LIMIT_EXCEEDED).`,
        // The AI-triggering limit as JSON Schema says it: run_ai, ai_assistance, assign_ai_employee with run true.
        ...jsonSchemaKeywords({
        contains: {
          anyOf: [
            { type: 'object', required: ['type'], properties: { type: { enum: ['run_ai', 'ai_assistance'] } } },
            { type: 'object', required: ['type', 'run'], properties: { type: { const: 'assign_ai_employee' }, run: { const: true } } },
          ],
        },
        minContains: 0,
        maxContains: ACTION_GROUP_LIMITS.maxAiTriggeringActions,
        }),
      }),
    stop_on_error: z.boolean().default(true).openapi({ description: 'true: the first failing action skips the rest.' }),
    escalate_on_error: z
      .boolean()
      .default(true)
      .openapi({ description: 'true: a server-side failure sets the conversation pending (pending_reason action_set_failed), once per group.' }),
  })
  .openapi('SubmitActionGroupRequest');

/** The group limits are checked first, on the raw body, so a too-large group is BATCH_LIMIT_EXCEEDED. */
export const SubmitActionGroupRequestSchema = z.preprocess((body) => {
  assertActionGroupLimits((body as { actions?: unknown } | null | undefined)?.actions);
  return body;
}, ActionGroupBodySchema);

export const SubmitActionGroupResponseSchema = z
  .object({
    conversation: ConversationIdSchema,
    status: z.literal('processing'),
    actions_accepted: z.number().int().min(1),
    action_group: z.object({ uuid: UuidSchema }).openapi({ description: 'Follow it with GET /action-groups/{uuid}.' }),
  })
  .openapi('SubmitActionGroupResponse');

export const ActionGroupStatusSchema = z.enum(['processing', 'succeeded', 'failed']).openapi('ActionGroupStatus');

export const ActionStatusSchema = z.enum(['pending', 'succeeded', 'noop', 'failed', 'skipped']).openapi('ActionStatus', {
  description: '`noop`: the desired state already held (counts as success); `skipped`: not run because an earlier action failed.',
});

export const ActionResultSchema = z
  .object({
    index: z.number().int().min(0),
    type: z.enum(ACTION_TYPES as [string, ...string[]]),
    status: ActionStatusSchema,
    error: nullable(ErrorBodySchema),
    started_at: DateTimeSchema.nullable().openapi({ description: 'Beyond CONTRACT 4: when the action last started (consecutive changes applied in one call: placed one after another from the call\'s start by the time each took).' }),
    finished_at: DateTimeSchema.nullable().openapi({ description: 'Beyond CONTRACT 4: when its result was recorded.' }),
  })
  .openapi('ActionResult');

export const ActionGroupSchema = z
  .object({
    uuid: UuidSchema,
    conversation: ConversationIdSchema,
    status: ActionGroupStatusSchema,
    escalated: z.boolean(),
    actions: z.array(ActionResultSchema),
    created_at: DateTimeSchema,
    finished_at: DateTimeSchema.nullable(),
  })
  .openapi('ActionGroup');

export const ActionGroupParamsSchema = z.object({ uuid: UuidSchema.openapi({ param: { description: 'The action group uuid from the 202.' } }) });

export const RunAiRequestSchema = z
  .object({ conversation: ConversationReferenceSchema, ai_employee: AiEmployeeReferenceSchema.optional() })
  .openapi('RunAiRequest');

export const RunAiResponseSchema = z.object({ conversation: ConversationIdSchema, status: z.literal('processing') }).openapi('RunAiResponse');

export const AiAssistanceRequestSchema = z
  .object({ conversation: ConversationReferenceSchema, ai_employee: AiEmployeeReferenceSchema, prompt: AiPromptSchema })
  .openapi('AiAssistanceRequest');

export const AiAssistanceResponseSchema = z
  .object({ answer: z.string(), note: z.object({ uuid: UuidSchema }).openapi({ description: 'The context note holding the answer.' }) })
  .openapi('AiAssistanceResponse');

export type SubmitActionGroupRequest = z.infer<typeof SubmitActionGroupRequestSchema>;
export type SubmitActionGroupResponse = z.infer<typeof SubmitActionGroupResponseSchema>;
export type ActionGroupView = z.infer<typeof ActionGroupSchema>;
export type ActionResultView = z.infer<typeof ActionResultSchema>;
export type RunAiRequest = z.infer<typeof RunAiRequestSchema>;
export type AiAssistanceRequest = z.infer<typeof AiAssistanceRequestSchema>;
