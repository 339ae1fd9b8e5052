import { loadGatewayConfig } from './config';

describe('loadGatewayConfig', () => {
  it('has a default for every variable', () => {
    const config = loadGatewayConfig({});
    expect(config).toMatchObject({
      PORT: 8080,
      CONVERSATIONS_GRPC_ADDRESS: '127.0.0.1:15051',
      SCHEDULER_GRPC_ADDRESS: '127.0.0.1:15052',
      ACTIONS_GRPC_ADDRESS: '127.0.0.1:15053',
      RATE_LIMIT_PER_MINUTE: 60,
      TOKEN_CACHE_TTL_MS: 4000,
    });
    for (const value of Object.values(config)) expect(value).toBeDefined();
  });

  it('parses the values it is given', () => {
    const config = loadGatewayConfig({ PORT: '9000', KAFKA_BROKERS: 'a:1, b:2', RATE_LIMIT_PER_MINUTE: '5', TOKEN_CACHE_TTL_MS: '0' });
    expect(config).toMatchObject({ PORT: 9000, KAFKA_BROKERS: ['a:1', 'b:2'], RATE_LIMIT_PER_MINUTE: 5, TOKEN_CACHE_TTL_MS: 0 });
  });

  it('refuses a token cache long enough to outlive a revocation by more than 5 s', () => {
    expect(() => loadGatewayConfig({ TOKEN_CACHE_TTL_MS: '4001' })).toThrow(/TOKEN_CACHE_TTL_MS/);
  });

  it('lists every invalid variable', () => {
    expect(() => loadGatewayConfig({ PORT: 'x', RATE_LIMIT_PER_MINUTE: '0' })).toThrow(/PORT.*RATE_LIMIT_PER_MINUTE/);
  });
});
