import { generateApiToken, hashApiToken, isWellFormedApiToken } from './api-token';

describe('api tokens', () => {
  it('generates well-formed, distinct tokens', () => {
    const first = generateApiToken();
    expect(isWellFormedApiToken(first)).toBe(true);
    expect(generateApiToken()).not.toBe(first);
  });

  it('hashes with SHA-256 hex', () => {
    expect(hashApiToken('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });

  it('rejects anything but cmsg_ and 64 lowercase hex', () => {
    expect(isWellFormedApiToken(`cmsg_${'F'.repeat(64)}`)).toBe(false);
    expect(isWellFormedApiToken(`cmsg_${'f'.repeat(65)}`)).toBe(false);
    expect(isWellFormedApiToken(` cmsg_${'f'.repeat(64)}`)).toBe(false);
  });
});
