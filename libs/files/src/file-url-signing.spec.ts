import { FileUrlSigner } from './file-url-signing';

const NOW = new Date('2025-03-01T12:00:00Z');
const grant = { purpose: 'upload' as const, businessId: 'biz-1', fileUuid: 'file-1', size: 123, expiresAt: new Date(NOW.getTime() + 60_000) };

describe('FileUrlSigner', () => {
  const signer = new FileUrlSigner('a-signing-secret-of-some-length', 'https://api.example.com/');

  it('builds the public URL of a grant under PUBLIC_BASE_URL', () => {
    expect(signer.url(grant)).toMatch(/^https:\/\/api\.example\.com\/v1\/uploads\/[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/);
    expect(signer.url({ ...grant, purpose: 'download' })).toContain('/v1/downloads/');
  });

  it('verifies its own token and answers the grant', () => {
    expect(signer.verify(signer.sign(grant), 'upload', NOW)).toEqual({ ...grant, expiresAt: new Date(Math.floor(grant.expiresAt.getTime() / 1000) * 1000) });
  });

  it.each([
    ['an expired token', (token: string) => token, 'upload', new Date(NOW.getTime() + 61_000)],
    ['a token for the other purpose', (token: string) => token, 'download', NOW],
    ['a tampered payload', (token: string) => `x${token}`, 'upload', NOW],
    ['a tampered signature', (token: string) => `${token.slice(0, -1)}${token.endsWith('A') ? 'B' : 'A'}`, 'upload', NOW],
    ['garbage', () => 'not-a-token', 'upload', NOW],
  ] as const)('refuses %s with 403 INVALID_REQUEST', (_case, mutate, purpose, at) => {
    expect(() => signer.verify(mutate(signer.sign(grant)), purpose, at)).toThrow(expect.objectContaining({ code: 'INVALID_REQUEST', httpStatus: 403 }));
  });

  it('refuses a token signed with another secret', () => {
    const other = new FileUrlSigner('another-signing-secret-entirely', 'https://api.example.com');
    expect(() => signer.verify(other.sign(grant), 'upload', NOW)).toThrow(expect.objectContaining({ httpStatus: 403 }));
  });
});
