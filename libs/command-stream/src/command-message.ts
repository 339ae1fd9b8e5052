import type { IHeaders, KafkaMessage } from 'kafkajs';

export type DecodedCommand<TCommand> = { ok: true; command: TCommand } | { ok: false; error: Error };

/** Header values as strings; a repeated header keeps its first value. */
export function decodeHeaders(headers: IHeaders | undefined): Record<string, string> {
  const decoded: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers ?? {})) {
    const first = Array.isArray(value) ? value[0] : value;
    if (first !== undefined) decoded[name] = first.toString();
  }
  return decoded;
}

/**
 * JSON value, then the caller's decode (e.g. a zod parse). A failure here is final: retrying cannot
 * fix a malformed command, so it goes straight to the dead-letter path, in its key's order.
 */
export function decodeCommand<TCommand>(message: KafkaMessage, decode: (value: unknown) => TCommand): DecodedCommand<TCommand> {
  try {
    if (message.key === null || message.key.length === 0) throw new Error('command has no key (conversation id)');
    if (message.value === null) throw new Error('command has no value');
    return { ok: true, command: decode(JSON.parse(message.value.toString('utf8'))) };
  } catch (error) {
    return { ok: false, error: error instanceof Error ? error : new Error(String(error)) };
  }
}
