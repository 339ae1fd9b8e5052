import type { ConversationCommand, ExecuteActionGroup } from '@cmsg/actions-domain';
import type { CommandHandler, PoisonHandler } from '@cmsg/command-stream';

/** Kafka handler: the command is already decoded and validated; execute it by kind. */
export function conversationCommandHandler(executeGroup: ExecuteActionGroup): CommandHandler<ConversationCommand> {
  return async (command, context) => {
    switch (command.kind) {
      case 'action_group':
        return executeGroup.execute(command, context.signal);
      default:
        return assertUnreachable(command.kind);
    }
  };
}

/**
 * Dead letter: a command that failed every attempt still ends with recorded results (its group
 * finishes failed). One that could not be decoded has nothing to record; the stream logged it.
 */
export function conversationCommandPoisonHandler(executeGroup: ExecuteActionGroup): PoisonHandler<ConversationCommand> {
  return async (command, error) => {
    if (command?.kind === 'action_group') await executeGroup.abandon(command, error);
  };
}

function assertUnreachable(kind: never): never {
  throw new Error(`Unknown command kind: ${String(kind)}`);
}
