import { loadConfig } from '../config';
import { certificateName } from './grpc-caller-authentication';
import { grpcClientSecurity } from './grpc-client-security';
import { grpcSecurityConfigShape, reflectionEnabled } from './grpc-security-config';
import { grpcServerSecurity, tokenDigest } from './grpc-server-security';

const parse = (env: Record<string, string>) => loadConfig(grpcSecurityConfigShape, env);
const TOKEN = 'token-of-the-gateway-0001';

describe('gRPC security configuration', () => {
  it('refuses to serve without TLS client certificates or tokens unless GRPC_ALLOW_INSECURE=true', () => {
    expect(() => grpcServerSecurity(parse({}))).toThrow(/gRPC callers would not be authenticated/);
    expect(() => grpcServerSecurity(parse({ GRPC_TLS_CERT: 'c', GRPC_TLS_KEY: 'k' }))).toThrow(/would not be authenticated/);
    const local = grpcServerSecurity(parse({ GRPC_ALLOW_INSECURE: 'true' }));
    expect(local).toMatchObject({ tls: false, allowUnauthenticated: true });
    expect(local.warnings).toEqual([expect.stringContaining('plaintext'), expect.stringContaining('GRPC_ALLOW_INSECURE=true')]);
  });

  it('accepts caller tokens alone (TLS ending at a mesh), with a plaintext warning', () => {
    const security = grpcServerSecurity(parse({ GRPC_AUTH_TOKENS: `gateway:${TOKEN}, scheduler:${TOKEN}-2` }));
    expect(security.tokenCallers).toEqual(new Map([[tokenDigest(TOKEN), 'gateway'], [tokenDigest(`${TOKEN}-2`), 'scheduler']]));
    expect(security.warnings).toEqual([expect.stringContaining('plaintext')]);
  });

  it('rejects malformed variables at boot', () => {
    expect(() => parse({ GRPC_AUTH_TOKENS: 'gateway' })).toThrow(/GRPC_AUTH_TOKENS: expected name:token pairs/);
    expect(() => parse({ GRPC_AUTH_TOKENS: 'gateway:short' })).toThrow(/at least 16 characters/);
    expect(() => parse({ GRPC_AUTH_TOKENS: `a:${TOKEN},b:${TOKEN}` })).toThrow(/two callers share a token/);
    expect(() => grpcServerSecurity(parse({ GRPC_TLS_CERT: 'c', GRPC_ALLOW_INSECURE: 'true' }))).toThrow(/go together/);
    expect(() => grpcServerSecurity(parse({ GRPC_TLS_CA: 'ca', GRPC_ALLOW_INSECURE: 'true' }))).toThrow(/needs GRPC_TLS_CERT/);
  });

  it('gives clients TLS, a token, or plaintext only when told', () => {
    expect(() => grpcClientSecurity(parse({}))).toThrow(/gRPC calls would be unauthenticated/);
    expect(grpcClientSecurity(parse({ GRPC_CLIENT_TOKEN: TOKEN })).security).toEqual({ insecure: true, token: TOKEN });
    expect(grpcClientSecurity(parse({ GRPC_ALLOW_INSECURE: 'true' }))).toEqual({ security: { insecure: true }, warnings: [expect.stringContaining('local use only')] });
  });

  it('turns reflection on by default exactly for local plaintext', () => {
    expect(reflectionEnabled(parse({ GRPC_ALLOW_INSECURE: 'true' }))).toBe(true);
    expect(reflectionEnabled(parse({}))).toBe(false);
    expect(reflectionEnabled(parse({ GRPC_REFLECTION: 'true' }))).toBe(true);
    expect(reflectionEnabled(parse({ GRPC_ALLOW_INSECURE: 'true', GRPC_REFLECTION: 'false' }))).toBe(false);
  });

  it('names a certificate by its CN, else its first subject alternative name', () => {
    expect(certificateName({ subject: { CN: 'gateway' } as never, subjectaltname: 'DNS:gw.internal' })).toBe('gateway');
    expect(certificateName({ subject: {} as never, subjectaltname: 'URI:spiffe://cmsg/ns/prod/sa/scheduler, DNS:scheduler' })).toBe('spiffe://cmsg/ns/prod/sa/scheduler');
    expect(certificateName({ subject: {} as never, subjectaltname: '' })).toBeUndefined();
  });
});
