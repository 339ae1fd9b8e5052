import { startOperationId } from './start-conversation.routes';

describe('startOperationId', () => {
  const caller = { business_id: 'b1', token_uuid: 'tok1' };

  it('is the same for the same token and Idempotency-Key, short whatever the key', () => {
    const key = 'k'.repeat(255);
    expect(startOperationId(caller, key)).toBe(startOperationId(caller, key));
    expect(startOperationId(caller, key)).toMatch(/^start:[0-9a-f]{64}$/);
  });

  it('differs between tokens sharing a key, and per request without a key', () => {
    expect(startOperationId(caller, 'k1')).not.toBe(startOperationId({ ...caller, token_uuid: 'tok2' }, 'k1'));
    expect(startOperationId(caller, undefined)).not.toBe(startOperationId(caller, undefined));
  });
});
