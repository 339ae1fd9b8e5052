import { trace } from '@opentelemetry/api';
import pino from 'pino';
import { currentRequestContext } from './request-context';

/** Structured JSON logs; every line carries the request id, the gRPC caller and trace ids of the work it belongs to. */
export function createLogger(service: string, level = process.env['LOG_LEVEL'] ?? 'info'): pino.Logger {
  return pino({
    level,
    base: { service },
    timestamp: pino.stdTimeFunctions.isoTime,
    formatters: { level: (label) => ({ level: label }) },
    mixin() {
      const spanContext = trace.getActiveSpan()?.spanContext();
      const request = currentRequestContext();
      return {
        request_id: request?.requestId,
        caller: request?.caller,
        trace_id: spanContext?.traceId,
        span_id: spanContext?.spanId,
      };
    },
  });
}

export type Logger = pino.Logger;
