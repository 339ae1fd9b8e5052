import { z } from 'zod';

/**
 * A due scheduled message, produced by the scheduler on the conversation-commands topic (key =
 * conversation uuid) and executed by the actions-runner. The schedule uuid is the command's id:
 * a firing taken over after its lease produces the same command again, and the executor runs a
 * schedule at most once whatever number of copies it receives.
 */
export const ScheduledMessageCommandSchema = z.object({
  kind: z.literal('scheduled_message'),
  schedule_uuid: z.guid(),
  business_id: z.string().min(1),
  conversation_uuid: z.guid(),
  /** The API token that created the schedule: the caller of the conversation RPCs at firing. */
  token_uuid: z.string(),
  executor_kind: z.enum(['ai_employee', 'human_user']),
  /** The schedule's minute (UTC; virtual time for tester conversations). */
  due_at: z.iso.datetime(),
  /** When the scheduler claimed it (real time). */
  fired_at: z.iso.datetime(),
  request_id: z.string().nullable(),
});

export type ScheduledMessageCommand = z.infer<typeof ScheduledMessageCommandSchema>;

/** Builds (or decodes) a command; throws a ZodError naming every invalid field. */
export function createScheduledMessageCommand(fields: Omit<ScheduledMessageCommand, 'kind'>): ScheduledMessageCommand {
  return ScheduledMessageCommandSchema.parse({ kind: 'scheduled_message', ...fields });
}
