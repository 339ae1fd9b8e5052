import { REDACTED_TOKEN, redactSignedFilePath } from './signed-path-redaction';

describe('redactSignedFilePath', () => {
  const token = 'eyJmIjoiMWIyYzNkNGUiLCJwIjoidSIsImUiOjE3MDAwMDAwMDB9.c2lnbmF0dXJlLXBhcnQtb2YtdGhlLXRva2Vu';

  it('hides the token of upload and download URLs, signature included', () => {
    expect(redactSignedFilePath(`/v1/uploads/${token}`)).toBe(`/v1/uploads/${REDACTED_TOKEN}`);
    expect(redactSignedFilePath(`/v1/downloads/${token}`)).toBe(`/v1/downloads/${REDACTED_TOKEN}`);
    // Whatever follows the token (a trailing part on a malformed URL) is dropped too.
    expect(redactSignedFilePath(`/v1/downloads/${token}/extra`)).toBe(`/v1/downloads/${REDACTED_TOKEN}`);
  });

  it('leaves every other path as it is', () => {
    for (const path of ['/v1/acme/files/request-upload', '/v1/acme/files/confirm', '/v1/uploads', '/healthz', '/v1/uploadsX/abc', '/webhooks/chat']) {
      expect(redactSignedFilePath(path)).toBe(path);
    }
  });
});
