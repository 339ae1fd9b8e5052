import { loadSchedulerConfig } from './config';

describe('loadSchedulerConfig', () => {
  it('derives the customer reply consumer group from the topic prefix unless one is given', () => {
    expect(loadSchedulerConfig({ KAFKA_TOPIC_PREFIX: 'run-1.' }).CUSTOMER_REPLY_CONSUMER_GROUP_ID).toBe('run-1.scheduler-customer-replies');
    expect(loadSchedulerConfig({}).CUSTOMER_REPLY_CONSUMER_GROUP_ID).toBe('scheduler-customer-replies');
    expect(loadSchedulerConfig({ CUSTOMER_REPLY_CONSUMER_GROUP_ID: 'replies' }).CUSTOMER_REPLY_CONSUMER_GROUP_ID).toBe('replies');
  });

  it('reads REDIS_URL (the webhook endpoint list versions) with the shared default', () => {
    expect(loadSchedulerConfig({}).REDIS_URL).toBe('redis://127.0.0.1:16379');
    expect(loadSchedulerConfig({ REDIS_URL: 'redis://cache:6379' }).REDIS_URL).toBe('redis://cache:6379');
  });
});
