import type { ChatCompletionMessageParam } from 'openai/resources/chat/completions';
import { assertUnreachable } from '@cmsg/errors';

export type TimelineRole = 'customer' | 'business' | 'note';

/** One line of a conversation's timeline as the AI sees it. */
export interface TimelineEntry {
  role: TimelineRole;
  text: string;
  at: Date | string;
}

export const INTERNAL_NOTE_PREFIX = 'Internal note: ';

/**
 * The chat messages for one AI run: the employee's instructions as the system message, then the
 * timeline in order. Customer lines are the user, business lines (human or AI) the assistant, and
 * internal notes system lines, so the model reads them as context it must not quote to the customer.
 */
export function chatMessagesFor(instructions: string, timeline: readonly TimelineEntry[]): ChatCompletionMessageParam[] {
  const messages: ChatCompletionMessageParam[] = [{ role: 'system', content: instructions }];
  for (const entry of timeline) {
    if (entry.text.trim() === '') continue;
    messages.push(messageFor(entry));
  }
  return messages;
}

function messageFor(entry: TimelineEntry): ChatCompletionMessageParam {
  switch (entry.role) {
    case 'customer':
      return { role: 'user', content: entry.text };
    case 'business':
      return { role: 'assistant', content: entry.text };
    case 'note':
      return { role: 'system', content: `${INTERNAL_NOTE_PREFIX}${entry.text}` };
    default:
      return assertUnreachable(entry.role, 'Unknown timeline role');
  }
}
