import { operationMessageId, operationNoteId } from './operation-ids';

const business = '6a1f0c2e-3b4d-4e5f-8a9b-0c1d2e3f4a5b';

describe('operationMessageId', () => {
  it('is a version 5, RFC 9562 variant UUID', () => {
    expect(operationMessageId(business, 'op-1', 0)).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });

  it('is the same for the same business, operation and part (a repeat finds the first attempt)', () => {
    expect(operationMessageId(business, 'group-uuid:3', 1)).toBe(operationMessageId(business, 'group-uuid:3', 1));
  });

  it('never changes for a given input (changing the namespace would re-send every pending repeat)', () => {
    expect(operationMessageId(business, '0d6f5c1a-5b7e-4c1f-9a57-2f1d8e7c6b5a', 0)).toBe('3f7c29d5-f07e-53bd-8df7-283db2de39e5');
  });

  it('differs per part, per operation and per business', () => {
    const ids = new Set([
      operationMessageId(business, 'op', 0),
      operationMessageId(business, 'op', 1),
      operationMessageId(business, 'op2', 0),
      operationMessageId('another-business', 'op', 0),
      // No ambiguity from joining the parts: ("op", 10) vs ("op1", 0).
      operationMessageId(business, 'op', 10),
      operationMessageId(business, 'op1', 0),
    ]);
    expect(ids.size).toBe(6);
  });
});

describe('operationNoteId', () => {
  it('is the same for the same business and operation, and differs from the message ids of that operation', () => {
    expect(operationNoteId(business, 'group-uuid:0')).toBe(operationNoteId(business, 'group-uuid:0'));
    expect(operationNoteId(business, 'group-uuid:0')).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(new Set([operationNoteId(business, 'group-uuid:0'), operationNoteId(business, 'group-uuid:1'), operationNoteId('another-business', 'group-uuid:0'), operationMessageId(business, 'group-uuid:0', 0)]).size).toBe(4);
  });
});
