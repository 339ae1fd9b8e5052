import {
  type ConversationCommand,
  type ExecuteActionGroup,
  type ScheduledMessagePorts,
  abandonFiredScheduledMessage,
  executeFiredScheduledMessage,
} from '@cmsg/actions-domain';
import type { CommandHandler, PoisonHandler } from '@cmsg/command-stream';
import { assertUnreachable } from '@cmsg/errors';

/** Kafka handler: the command is already decoded and validated; execute it by kind. */
export function conversationCommandHandler(executeGroup: ExecuteActionGroup, schedules: ScheduledMessagePorts): CommandHandler<ConversationCommand> {
  return async (command, context) => {
    switch (command.kind) {
      case 'action_group':
        return executeGroup.execute(command, context.signal);
      case 'scheduled_message':
        return executeFiredScheduledMessage(command, schedules, context.signal);
      default:
        return assertUnreachable(command, (unknown) => new Error(`Unknown command kind: ${String((unknown as { kind?: unknown }).kind)}`));
    }
  };
}

/**
 * Dead letter: a command that failed every attempt still ends with recorded results (its group
 * finishes failed, its schedule is failed). One that could not be decoded has nothing to record;
 * the stream logged it.
 */
export function conversationCommandPoisonHandler(executeGroup: ExecuteActionGroup, schedules: ScheduledMessagePorts): PoisonHandler<ConversationCommand> {
  return async (command, error) => {
    if (command?.kind === 'action_group') await executeGroup.abandon(command, error);
    if (command?.kind === 'scheduled_message') await abandonFiredScheduledMessage(command, error, schedules);
  };
}
