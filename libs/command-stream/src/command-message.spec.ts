import type { KafkaMessage } from 'kafkajs';
import { decodeCommand, decodeHeaders } from './command-message';

const message = (key: string | null, value: string | null): KafkaMessage =>
  ({ key: key === null ? null : Buffer.from(key), value: value === null ? null : Buffer.from(value), offset: '0', timestamp: '0', attributes: 0, headers: {} }) as KafkaMessage;

describe('decodeCommand', () => {
  it('parses the JSON value and applies the decoder', () => {
    expect(decodeCommand(message('c1', '{"type":"run"}'), (value) => value)).toEqual({ ok: true, command: { type: 'run' } });
  });

  it.each([
    ['no key', message(null, '{}'), /no key/],
    ['no value', message('c1', null), /no value/],
    ['malformed JSON', message('c1', '{'), /JSON/],
  ])('rejects %s', (_, input, expected) => {
    const decoded = decodeCommand(input, (value) => value);
    expect(decoded.ok).toBe(false);
    if (!decoded.ok) expect(decoded.error.message).toMatch(expected);
  });

  it('rejects what the decoder rejects', () => {
    const decoded = decodeCommand(message('c1', '{}'), () => {
      throw new Error('type is required');
    });
    expect(decoded).toEqual({ ok: false, error: new Error('type is required') });
  });
});

describe('decodeHeaders', () => {
  it('turns buffers into strings and keeps the first of repeated values', () => {
    expect(decodeHeaders({ 'x-request-id': Buffer.from('r1'), multi: [Buffer.from('a'), 'b'], none: undefined })).toEqual({ 'x-request-id': 'r1', multi: 'a' });
  });
});
