import { createHash } from 'node:crypto';
import { apiTokenSha256, bearerApiTokenOf } from './api-token';

const token = `cmsg_${'0123456789abcdef'.repeat(4)}`;

describe('bearerApiTokenOf', () => {
  it('returns a well-formed token', () => {
    expect(bearerApiTokenOf(`Bearer ${token}`)).toBe(token);
  });

  it('treats the scheme name case-insensitively', () => {
    expect(bearerApiTokenOf(`bearer ${token}`)).toBe(token);
    expect(bearerApiTokenOf(`BEARER ${token}`)).toBe(token);
  });

  it.each([
    ['no header', undefined],
    ['empty header', ''],
    ['no scheme', token],
    ['another scheme', `Basic ${token}`],
    ['no token', 'Bearer '],
    ['uppercase hex', `Bearer cmsg_${'0123456789ABCDEF'.repeat(4)}`],
    ['63 hex', `Bearer cmsg_${'a'.repeat(63)}`],
    ['65 hex', `Bearer cmsg_${'a'.repeat(65)}`],
    ['non-hex', `Bearer cmsg_${'g'.repeat(64)}`],
    ['wrong prefix', `Bearer cmsx_${'a'.repeat(64)}`],
    ['uppercase prefix', `Bearer CMSG_${'a'.repeat(64)}`],
    ['trailing garbage', `Bearer ${token} extra`],
  ])('rejects %s', (_case, header) => {
    expect(bearerApiTokenOf(header)).toBeUndefined();
  });
});

describe('apiTokenSha256', () => {
  it('is the SHA-256 hex of the whole token, prefix included', () => {
    expect(apiTokenSha256(token)).toBe(createHash('sha256').update(token).digest('hex'));
    expect(apiTokenSha256(token)).toMatch(/^[0-9a-f]{64}$/);
  });
});
