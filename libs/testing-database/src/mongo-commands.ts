import mongoose from 'mongoose';

/** A command the driver sent, as it sent it (`{update: 'conversations', updates: [...]}`). */
export type SentCommand = Record<string, any>;

/**
 * Records the commands this process's connection sends while it runs, those `accept` keeps: what a
 * spec counts to prove how many round trips a write took. The connection must monitor commands
 * (connectToOwnDatabase(label, { monitorCommands: true })).
 */
export function watchMongoCommands(accept: (commandName: string, command: SentCommand) => boolean): { commands: SentCommand[]; stop(): void } {
  const commands: SentCommand[] = [];
  const client = mongoose.connection.getClient();
  const listener = (event: { commandName: string; command: SentCommand }) => {
    if (accept(event.commandName, event.command)) commands.push(event.command);
  };
  client.on('commandStarted', listener);
  return { commands, stop: () => client.off('commandStarted', listener) };
}
