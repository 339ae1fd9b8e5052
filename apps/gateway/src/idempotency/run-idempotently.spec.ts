import { CatalogError } from '@cmsg/errors';
import { createLogger } from '@cmsg/platform';
import { InMemoryIdempotencyStore } from '../testing/in-memory-idempotency-store';
import type { StoredResponse } from './idempotency-store';
import { runIdempotently } from './run-idempotently';

const logger = createLogger('test', 'silent');
const scope = { tokenUuid: 'token-1', key: 'key-1' };
const created: StoredResponse = { status: 201, body: { note: { uuid: 'n1' } }, headers: {} };

describe('runIdempotently', () => {
  let store: InMemoryIdempotencyStore;
  beforeEach(() => {
    store = new InMemoryIdempotencyStore();
  });

  it('runs once and replays the stored response for the same request', async () => {
    const execute = jest.fn(async () => created);
    await expect(runIdempotently(store, scope, 'fp', execute, logger)).resolves.toEqual({ response: created, replayed: false });
    await expect(runIdempotently(store, scope, 'fp', execute, logger)).resolves.toEqual({ response: created, replayed: true });
    expect(execute).toHaveBeenCalledTimes(1);
  });

  it('answers IDEMPOTENCY_KEY_REUSED for another request under the same key', async () => {
    await runIdempotently(store, scope, 'fp', async () => created, logger);
    const execute = jest.fn(async () => created);
    await expect(runIdempotently(store, scope, 'other-fp', execute, logger)).rejects.toMatchObject({ code: 'IDEMPOTENCY_KEY_REUSED', httpStatus: 409 });
    expect(execute).not.toHaveBeenCalled();
  });

  it('answers IDEMPOTENCY_REQUEST_IN_PROGRESS while the first request runs', async () => {
    let finish: (response: StoredResponse) => void = () => undefined;
    const first = runIdempotently(store, scope, 'fp', () => new Promise<StoredResponse>((resolve) => (finish = resolve)), logger);
    await new Promise((resolve) => setImmediate(resolve));
    await expect(runIdempotently(store, scope, 'fp', async () => created, logger)).rejects.toMatchObject({
      code: 'IDEMPOTENCY_REQUEST_IN_PROGRESS',
      retryAfterSeconds: 1,
    });
    finish(created);
    await expect(first).resolves.toMatchObject({ replayed: false });
  });

  it('keys are per token', async () => {
    await runIdempotently(store, scope, 'fp', async () => created, logger);
    const execute = jest.fn(async () => created);
    await runIdempotently(store, { ...scope, tokenUuid: 'token-2' }, 'other-fp', execute, logger);
    expect(execute).toHaveBeenCalledTimes(1);
  });

  it('stores a client error the handler raised and replays it', async () => {
    const notFound = new CatalogError('CONVERSATION_NOT_FOUND');
    await expect(runIdempotently(store, scope, 'fp', async () => Promise.reject(notFound), logger)).rejects.toBe(notFound);
    const execute = jest.fn(async () => created);
    await expect(runIdempotently(store, scope, 'fp', execute, logger)).resolves.toEqual({
      response: { status: 404, body: notFound.toBody(), headers: {} },
      replayed: true,
    });
    expect(execute).not.toHaveBeenCalled();
  });

  it.each([new CatalogError('SERVICE_UNAVAILABLE'), new Error('boom')])('releases the key on a server error (%s) so a retry runs', async (failure) => {
    await expect(runIdempotently(store, scope, 'fp', async () => Promise.reject(failure), logger)).rejects.toBe(failure);
    await expect(runIdempotently(store, scope, 'fp', async () => created, logger)).resolves.toEqual({ response: created, replayed: false });
  });
});
