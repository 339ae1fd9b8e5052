import { KafkaReadinessCheck } from './kafka-readiness';

function adminFactory(outcomes: boolean[]) {
  const admins: { connect: jest.Mock; describeCluster: jest.Mock; disconnect: jest.Mock }[] = [];
  const create = () => {
    const reachable = outcomes.shift() ?? true;
    const admin = {
      connect: jest.fn(async () => (reachable ? undefined : Promise.reject(new Error('ECONNREFUSED')))),
      describeCluster: jest.fn(async () => ({ brokers: [], controller: 1, clusterId: 'c' })),
      disconnect: jest.fn(async () => undefined),
    };
    admins.push(admin);
    return admin;
  };
  return { admins, create };
}

describe('KafkaReadinessCheck', () => {
  let now = 0;
  const clock = () => now;

  it('connects, describes the cluster and disconnects', async () => {
    const factory = adminFactory([true]);
    await new KafkaReadinessCheck(factory.create, 5000, clock).check();
    expect(factory.admins[0].describeCluster).toHaveBeenCalled();
    expect(factory.admins[0].disconnect).toHaveBeenCalled();
  });

  it('caches the answer, success or failure, for the cache period', async () => {
    const factory = adminFactory([false, true]);
    const check = new KafkaReadinessCheck(factory.create, 5000, clock);
    await expect(check.check()).rejects.toThrow('ECONNREFUSED');
    now += 4999;
    await expect(check.check()).rejects.toThrow('ECONNREFUSED');
    expect(factory.admins).toHaveLength(1);
    now += 1;
    await expect(check.check()).resolves.toBeUndefined();
    expect(factory.admins).toHaveLength(2);
  });

  it('shares one probe between concurrent checks', async () => {
    const factory = adminFactory([true]);
    const check = new KafkaReadinessCheck(factory.create, 5000, clock);
    await Promise.all([check.check(), check.check(), check.check()]);
    expect(factory.admins).toHaveLength(1);
  });
});
