import { HealthCheckResponse_ServingStatus, type HealthClient, type PromiseClient } from '@cmsg/proto';
import type { ReadinessCheck } from './readiness-check';

/**
 * grpc.health.v1 Check must say SERVING: of the whole server (service ""), or of one dependency the
 * service checks for the gateway (service "mongodb": the gateway has no MongoDB connection of its
 * own and learns of MongoDB from the conversations service).
 */
export function grpcHealthReadinessCheck(name: string, health: PromiseClient<HealthClient>, service = ''): ReadinessCheck {
  return {
    name,
    check: async () => {
      const { status } = await health.check({ service });
      if (status !== HealthCheckResponse_ServingStatus.SERVING) throw new Error(`${name} health is ${HealthCheckResponse_ServingStatus[status]}`);
    },
  };
}
