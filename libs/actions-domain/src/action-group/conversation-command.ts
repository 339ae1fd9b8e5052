import { ActionGroupCommandSchema, ScheduledMessageCommandSchema } from '@cmsg/conversation-commands';
import { z } from 'zod';

export { ActionGroupCommandSchema, createActionGroupCommand } from '@cmsg/conversation-commands';
export type { ActionGroupCommand, ActionGroupSource } from '@cmsg/conversation-commands';

/** Every kind of command the actions-runner executes; new kinds join this union. */
export const ConversationCommandSchema = z.discriminatedUnion('kind', [ActionGroupCommandSchema, ScheduledMessageCommandSchema]);

export type ConversationCommand = z.infer<typeof ConversationCommandSchema>;

/** Builds (or decodes) a command; throws a ZodError naming every invalid field. */
export function parseConversationCommand(value: unknown): ConversationCommand {
  return ConversationCommandSchema.parse(value);
}
