import { requestIdFor } from './request-id.middleware';

const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('requestIdFor', () => {
  it.each(['0a1b2c3d-4e5f-4a6b-8c7d-8e9f0a1b2c3d', 'AAAAAAAA-BBBB-CCCC-DDDD-EEEEEEEEEEEE'])('keeps the client UUID %s', (clientValue) => {
    expect(requestIdFor(clientValue)).toBe(clientValue);
  });

  it.each([undefined, '', 'abc', '0a1b2c3d4e5f4a6b8c7d8e9f0a1b2c3d', '0a1b2c3d-4e5f-4a6b-8c7d-8e9f0a1b2c3d ', `x${'0a1b2c3d-4e5f-4a6b-8c7d-8e9f0a1b2c3d'}`])(
    'replaces %j with a fresh UUID',
    (clientValue) => {
      const requestId = requestIdFor(clientValue);
      expect(requestId).not.toBe(clientValue);
      expect(requestId).toMatch(uuidPattern);
    },
  );

  it('generates a different id each time', () => {
    expect(requestIdFor(undefined)).not.toBe(requestIdFor(undefined));
  });
});
