import { canonicalJson, requestFingerprint } from './request-fingerprint';

describe('canonicalJson', () => {
  it('sorts keys at every depth and drops undefined members', () => {
    expect(canonicalJson({ b: 1, a: { d: [2, { z: 1, y: 2 }], c: undefined } })).toBe('{"a":{"d":[2,{"y":2,"z":1}]},"b":1}');
  });
});

describe('requestFingerprint', () => {
  const body = { conversation: { uuid: 'u', phone: 'p' }, note: 'hi' };

  it('ignores key order', () => {
    expect(requestFingerprint('post', '/v1/:slug/conversation/notes', body)).toBe(
      requestFingerprint('POST', '/v1/:slug/conversation/notes', { note: 'hi', conversation: { phone: 'p', uuid: 'u' } }),
    );
  });

  it('differs for another body, route or method', () => {
    const fingerprint = requestFingerprint('POST', '/v1/:slug/conversation/notes', body);
    expect(requestFingerprint('POST', '/v1/:slug/conversation/notes', { ...body, note: 'other' })).not.toBe(fingerprint);
    expect(requestFingerprint('POST', '/v1/:slug/conversation/pending', body)).not.toBe(fingerprint);
    expect(requestFingerprint('DELETE', '/v1/:slug/conversation/notes', body)).not.toBe(fingerprint);
  });
});
