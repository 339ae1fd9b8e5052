import { duplicateKeyIndex, isDuplicateKeyError } from './duplicate-key';

describe('duplicate key errors', () => {
  it('recognises a duplicate key by its code', () => {
    expect(isDuplicateKeyError({ code: 11000 })).toBe(true);
    expect(isDuplicateKeyError({ code: 121 })).toBe(false);
    expect(isDuplicateKeyError(null)).toBe(false);
  });

  it('names the unique index a duplicate key lost to', () => {
    expect(duplicateKeyIndex({ code: 11000, message: 'E11000 duplicate key error collection: db.s index: pending_conversation_key_1 dup key: { pending_conversation_key: "b:c" }' })).toBe(
      'pending_conversation_key_1',
    );
    expect(duplicateKeyIndex({ code: 11000, message: 'E11000 duplicate key error collection: db.s index: _id_ dup key: { _id: "a" }' })).toBe('_id_');
    expect(duplicateKeyIndex(new Error('connection closed'))).toBeNull();
  });
});
