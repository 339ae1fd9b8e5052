import { readRetryMethodConfig } from './retry-policy';

/**
 * A client channel's service config: calls spread over every address its target resolves to
 * (round_robin: the replicas behind a headless Service's `dns:///` name, or an `ipv4:` list), where
 * the default pick_first would send them all to the first; and the read retries.
 */
export function channelServiceConfig(serviceName: string): string {
  return JSON.stringify({ loadBalancingConfig: [{ round_robin: {} }], methodConfig: readRetryMethodConfig(serviceName) });
}
