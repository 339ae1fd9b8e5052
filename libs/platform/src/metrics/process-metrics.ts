import { monitorEventLoopDelay } from 'node:perf_hooks';
import { metrics } from '@opentelemetry/api';

/**
 * The standard process_* and nodejs_* series (the names prom-client gives them, which dashboards
 * and the alert rules expect): CPU time, resident memory, heap, start time, event loop delay.
 */
export function registerProcessMetrics(): void {
  const meter = metrics.getMeter('cmsg-process');
  const loopDelay = monitorEventLoopDelay({ resolution: 10 });
  loopDelay.enable();
  const startTime = Date.now() / 1000 - process.uptime();

  meter.createObservableCounter('process_cpu_seconds', { description: 'Total user and system CPU time spent in seconds.' }).addCallback((result) => {
    const usage = process.cpuUsage();
    result.observe((usage.user + usage.system) / 1e6);
  });
  meter.createObservableGauge('process_resident_memory_bytes', { description: 'Resident memory size in bytes.' }).addCallback((result) => result.observe(process.memoryUsage.rss()));
  meter.createObservableGauge('process_start_time_seconds', { description: 'Start time of the process since unix epoch in seconds.' }).addCallback((result) => result.observe(startTime));
  meter.createObservableGauge('nodejs_heap_size_used_bytes', { description: 'Process heap size used from Node.js in bytes.' }).addCallback((result) => result.observe(process.memoryUsage().heapUsed));
  meter.createObservableGauge('nodejs_heap_size_total_bytes', { description: 'Process heap size from Node.js in bytes.' }).addCallback((result) => result.observe(process.memoryUsage().heapTotal));
  // Percentiles over the interval since the previous scrape, then reset.
  meter.createObservableGauge('nodejs_eventloop_lag_p50_seconds', { description: 'The 50th percentile of the recorded event loop delays.' }).addCallback((result) => result.observe(loopDelay.percentile(50) / 1e9));
  meter.createObservableGauge('nodejs_eventloop_lag_p99_seconds', { description: 'The 99th percentile of the recorded event loop delays.' }).addCallback((result) => {
    result.observe(loopDelay.percentile(99) / 1e9);
    loopDelay.reset();
  });
}
