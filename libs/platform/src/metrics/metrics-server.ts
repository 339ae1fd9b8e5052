import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { PrometheusExporter } from '@opentelemetry/exporter-prometheus';
import type { Logger } from '../logger';

/** The reader the telemetry SDK collects into; its HTTP endpoint is ours (startMetricsServer), so a busy port is a log line, not a crash. */
export const prometheusReader = new PrometheusExporter({ preventServerStart: true });

export interface MetricsServer {
  port: number;
  close(): Promise<void>;
}

/** GET /metrics in the Prometheus text format on `port` (all interfaces: the scraper is another pod); 0 serves none. */
export function startMetricsServer(port: number, logger: Logger): Promise<MetricsServer | undefined> {
  if (port === 0) return Promise.resolve(undefined);
  const server = createServer((request, response) => {
    if (request.method === 'GET' && request.url?.split('?')[0] === '/metrics') {
      prometheusReader.getMetricsRequestHandler(request, response);
      return;
    }
    response.statusCode = 404;
    response.end('not found: metrics are at /metrics\n');
  });
  return new Promise((resolve) => {
    server.once('error', (error) => {
      logger.warn({ err: error, metrics_port: port }, 'metrics endpoint not started; the app runs without it');
      resolve(undefined);
    });
    server.listen(port, () => {
      const bound = (server.address() as AddressInfo).port;
      logger.info({ metrics_port: bound }, 'metrics at /metrics');
      resolve({ port: bound, close: () => new Promise((done) => server.close(() => done())) });
    });
  });
}
