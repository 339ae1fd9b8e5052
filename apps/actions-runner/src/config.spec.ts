import { loadActionsRunnerConfig } from './config';

describe('loadActionsRunnerConfig', () => {
  it('derives the consumer group from the topic prefix unless one is given', () => {
    expect(loadActionsRunnerConfig({ KAFKA_TOPIC_PREFIX: 'run-1.' }).COMMAND_CONSUMER_GROUP_ID).toBe('run-1.actions-runner');
    expect(loadActionsRunnerConfig({}).COMMAND_CONSUMER_GROUP_ID).toBe('actions-runner');
    expect(loadActionsRunnerConfig({ COMMAND_CONSUMER_GROUP_ID: 'runners' }).COMMAND_CONSUMER_GROUP_ID).toBe('runners');
  });

  it('has the documented defaults and fails fast on nonsense', () => {
    expect(loadActionsRunnerConfig({})).toMatchObject({
      COMMAND_CONCURRENCY: 64,
      COMMAND_SESSION_TIMEOUT_MS: 30_000,
      WEBHOOK_RETRY_BASE_MS: 5_000,
      CONVERSATIONS_GRPC_ADDRESS: '127.0.0.1:15051',
      REDIS_URL: 'redis://127.0.0.1:16379',
    });
    expect(loadActionsRunnerConfig({ REDIS_URL: 'redis://cache:6379' }).REDIS_URL).toBe('redis://cache:6379');
    expect(() => loadActionsRunnerConfig({ COMMAND_CONCURRENCY: '0' })).toThrow('COMMAND_CONCURRENCY');
    expect(() => loadActionsRunnerConfig({ COMMAND_SESSION_TIMEOUT_MS: '1000' })).toThrow('COMMAND_SESSION_TIMEOUT_MS');
  });
});
