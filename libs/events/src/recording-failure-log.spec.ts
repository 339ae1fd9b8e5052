import type { OutboxEntry } from '@cmsg/dal';
import { warnOfRecordingFailure } from './recording-failure-log';

describe('warnOfRecordingFailure', () => {
  it('warns with the error, the entry and its conversation', () => {
    const warnings: unknown[][] = [];
    const logger = { warn: (...args: unknown[]) => void warnings.push(args) } as unknown as Parameters<typeof warnOfRecordingFailure>[0];
    const error = new Error('kafka down');
    warnOfRecordingFailure(logger)(error, { id: 'entry-1', conversation_id: 'conversation-1' } as OutboxEntry);
    expect(warnings).toEqual([[{ err: error, event_id: 'entry-1', conversation_uuid: 'conversation-1' }, 'event recording failed; the outbox relay will retry']]);
  });
});
