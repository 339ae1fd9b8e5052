import { withTimeout } from './with-timeout';

describe('withTimeout', () => {
  it('answers what the promise answers when it comes first', async () => {
    await expect(withTimeout(Promise.resolve(7), 1_000, 'late')).resolves.toBe(7);
    await expect(withTimeout(Promise.reject(new Error('refused')), 1_000, 'late')).rejects.toThrow('refused');
  });

  it('rejects with the message once the time passed first', async () => {
    await expect(withTimeout(new Promise(() => undefined), 10, 'Redis did not answer within 10 ms')).rejects.toThrow('Redis did not answer within 10 ms');
  });
});
