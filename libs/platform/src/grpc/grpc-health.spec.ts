import { createLogger } from '../logger';
import { ServiceHealth } from './grpc-health';

const logger = createLogger('grpc-health-spec', 'silent');

describe('ServiceHealth', () => {
  it('answers NOT_SERVING until the background work has started, however healthy the dependencies', async () => {
    const health = new ServiceHealth(['cmsg.Actions'], async () => true, logger);
    await health.start();
    expect(health.status()).toBe('NOT_SERVING');
    await health.markStarted();
    expect(health.status()).toBe('SERVING');
    health.stopServing();
  });

  it('answers NOT_SERVING after the start while the dependency check fails, and from the drain on', async () => {
    let healthy = false;
    const health = new ServiceHealth(['cmsg.Actions'], async () => healthy, logger);
    await health.start();
    await health.markStarted();
    expect(health.status()).toBe('NOT_SERVING');
    healthy = true;
    await health.markStarted();
    expect(health.status()).toBe('SERVING');
    health.stopServing();
    expect(health.status()).toBe('NOT_SERVING');
    await health.markStarted();
    expect(health.status()).toBe('NOT_SERVING');
  });
});
