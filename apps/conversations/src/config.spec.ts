import { loadConversationsConfig } from './config';

describe('loadConversationsConfig', () => {
  it('has a default for every variable but the optional ones', () => {
    const config = loadConversationsConfig({});
    expect(config).toMatchObject({
      GRPC_ADDRESS: '127.0.0.1:15051',
      BROADCAST_TOPIC_PARTITIONS: 12,
      SEND_PAIR_INTERVAL_MS: 6_000,
      OUTBOX_RELAY_INTERVAL_MS: 5000,
      CHAT_API_TIMEOUT_MS: 15_000,
      CHAT_BSUID_SEND_ENABLED: false,
      SPEECH_TRANSCRIPTION_COST_TOKENS: 500,
      FILE_SWEEP_INTERVAL_MS: 60_000,
      WEBHOOK_ALLOW_PRIVATE_URLS: false,
      METRICS_PORT: 9465,
    });
    const optional = new Set(['GRPC_HEALTH_ADDRESS', 'CMSG_MONGO_SHAPE_LOG', 'GRPC_TLS_CERT', 'GRPC_TLS_KEY', 'GRPC_TLS_CA', 'GRPC_CLIENT_TOKEN', 'GRPC_REFLECTION']);
    for (const [name, value] of Object.entries(config)) if (!optional.has(name)) expect([name, value]).toEqual([name, expect.anything()]);
  });

  it('parses the values it is given', () => {
    const config = loadConversationsConfig({ KAFKA_BROKERS: 'a:1, b:2', SEND_PAIR_INTERVAL_MS: '0', CHAT_BSUID_SEND_ENABLED: '1', SPEECH_TRANSCRIPTION_COST_TOKENS: '0' });
    expect(config).toMatchObject({ KAFKA_BROKERS: ['a:1', 'b:2'], SEND_PAIR_INTERVAL_MS: 0, CHAT_BSUID_SEND_ENABLED: true, SPEECH_TRANSCRIPTION_COST_TOKENS: 0 });
  });

  it('refuses a pair interval above a minute and a Cloud API timeout outside 100 ms to 2 min', () => {
    expect(() => loadConversationsConfig({ SEND_PAIR_INTERVAL_MS: '60001' })).toThrow(/SEND_PAIR_INTERVAL_MS/);
    expect(() => loadConversationsConfig({ CHAT_API_TIMEOUT_MS: '99' })).toThrow(/CHAT_API_TIMEOUT_MS/);
    expect(() => loadConversationsConfig({ CHAT_API_TIMEOUT_MS: '120001' })).toThrow(/CHAT_API_TIMEOUT_MS/);
  });

  it('lists every invalid variable', () => {
    expect(() => loadConversationsConfig({ BROADCAST_TOPIC_PARTITIONS: '0', CHAT_BSUID_SEND_ENABLED: 'yes', SIGNING_SECRET: 'short' })).toThrow(
      /SIGNING_SECRET.*BROADCAST_TOPIC_PARTITIONS.*CHAT_BSUID_SEND_ENABLED/,
    );
  });
});
