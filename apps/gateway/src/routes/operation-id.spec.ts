import { operationIdFor } from './operation-id';

describe('operationIdFor', () => {
  const caller = { business_id: 'b1', token_uuid: 'tok1' };

  it('is the same for the same token and Idempotency-Key, short whatever the key', () => {
    const key = 'k'.repeat(255);
    expect(operationIdFor('start', caller, key)).toBe(operationIdFor('start', caller, key));
    expect(operationIdFor('start', caller, key)).toMatch(/^start:[0-9a-f]{64}$/);
    expect(operationIdFor('broadcast', caller, key)).toMatch(/^broadcast:[0-9a-f]{64}$/);
  });

  it('differs between tokens sharing a key, and per request without a key', () => {
    expect(operationIdFor('start', caller, 'k1')).not.toBe(operationIdFor('start', { ...caller, token_uuid: 'tok2' }, 'k1'));
    expect(operationIdFor('broadcast', caller, undefined)).not.toBe(operationIdFor('broadcast', caller, undefined));
  });
});
