import { HealthCheckResponse_ServingStatus, type HealthClient, type PromiseClient } from '@cmsg/proto';
import type { ReadinessCheck } from './readiness-check';

/** grpc.health.v1 Check of the whole server (empty service name) must say SERVING. */
export function grpcHealthReadinessCheck(name: string, health: PromiseClient<HealthClient>): ReadinessCheck {
  return {
    name,
    check: async () => {
      const { status } = await health.check({ service: '' });
      if (status !== HealthCheckResponse_ServingStatus.SERVING) throw new Error(`${name} health is ${HealthCheckResponse_ServingStatus[status]}`);
    },
  };
}
