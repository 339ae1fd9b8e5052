import { addNoteEndpoint, listConversationsEndpoint } from '@cmsg/api-schemas';
import type { Request } from 'express';
import { parseEndpointInput, parseIdempotencyKey } from './validate';

function requestOf(parts: { body?: unknown; query?: unknown; params?: unknown; headers?: Record<string, string> }): Request {
  const headers = Object.fromEntries(Object.entries(parts.headers ?? {}).map(([name, value]) => [name.toLowerCase(), value]));
  return { params: { slug: 'acme', ...(parts.params as object) }, query: parts.query ?? {}, body: parts.body, get: (name: string) => headers[name.toLowerCase()] } as unknown as Request;
}

function messageOf(action: () => unknown): string {
  try {
    action();
  } catch (error) {
    expect(error).toMatchObject({ code: 'INVALID_REQUEST', httpStatus: 400 });
    return (error as Error).message;
  }
  throw new Error('expected INVALID_REQUEST');
}

describe('parseEndpointInput', () => {
  it('returns the parsed parts with unknown fields dropped and defaults applied', () => {
    const input = parseEndpointInput(addNoteEndpoint, requestOf({ body: { conversation: { phone: '+52 55' }, note: 'hi', extra: true } }));
    expect(input).toEqual({ params: undefined, query: undefined, body: { conversation: { phone: '+52 55' }, note: 'hi' } });
    expect(parseEndpointInput(listConversationsEndpoint, requestOf({ query: { limit: '10' } })).query).toEqual({ limit: 10, order: 'desc' });
  });

  it('names every offending field in the message', () => {
    const message = messageOf(() => parseEndpointInput(addNoteEndpoint, requestOf({ body: { conversation: { uuid: 'nope' }, note: '' } })));
    expect(message).toMatch(/^Invalid request: /);
    expect(message).toContain('conversation.uuid');
    expect(message).toContain('note');
  });

  it('names the conversation when no member of the reference is given', () => {
    expect(messageOf(() => parseEndpointInput(addNoteEndpoint, requestOf({ body: { conversation: {}, note: 'x' } })))).toContain(
      'conversation: one of uuid, chat_user_id, username, phone is required',
    );
  });

  it('names the body itself when there is no JSON object', () => {
    expect(messageOf(() => parseEndpointInput(addNoteEndpoint, requestOf({ body: undefined })))).toContain('body: ');
    expect(messageOf(() => parseEndpointInput(addNoteEndpoint, requestOf({ body: [1, 2] })))).toContain('body: ');
  });

  it('names query parameters', () => {
    const message = messageOf(() => parseEndpointInput(listConversationsEndpoint, requestOf({ query: { limit: '500', order: 'up' } })));
    expect(message).toContain('limit');
    expect(message).toContain('order');
  });
});

describe('parseIdempotencyKey', () => {
  it('is undefined without the header', () => {
    expect(parseIdempotencyKey(requestOf({}))).toBeUndefined();
  });

  it.each([1, 255])('accepts %i characters', (length) => {
    expect(parseIdempotencyKey(requestOf({ headers: { 'Idempotency-Key': 'k'.repeat(length) } }))).toBe('k'.repeat(length));
  });

  it.each([0, 256])('rejects %i characters', (length) => {
    expect(messageOf(() => parseIdempotencyKey(requestOf({ headers: { 'Idempotency-Key': 'k'.repeat(length) } })))).toContain('Idempotency-Key');
  });
});
