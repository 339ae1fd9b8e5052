import { fromBinary } from '@bufbuild/protobuf';
import { FileDescriptorSetSchema, MethodOptions_IdempotencyLevel } from '@bufbuild/protobuf/wkt';
import { FILE_DESCRIPTOR_SET_BASE64 } from '../generated/file-descriptor-set';

/** Retries of a read whose server could not be reached; the call's deadline bounds them all. */
export const READ_RETRY_POLICY = {
  maxAttempts: 4,
  initialBackoff: '0.1s',
  maxBackoff: '1s',
  backoffMultiplier: 2,
  retryableStatusCodes: ['UNAVAILABLE'],
} as const;

let readMethods: Map<string, string[]> | undefined;

/**
 * Methods declared `option idempotency_level = NO_SIDE_EFFECTS` in the .proto files, by fully
 * qualified service name: the one place that says which calls are safe to repeat.
 */
export function readMethodsByService(): ReadonlyMap<string, readonly string[]> {
  if (readMethods) return readMethods;
  readMethods = new Map();
  const set = fromBinary(FileDescriptorSetSchema, Buffer.from(FILE_DESCRIPTOR_SET_BASE64, 'base64'));
  for (const file of set.file) {
    for (const service of file.service) {
      const reads = service.method.filter((method) => method.options?.idempotencyLevel === MethodOptions_IdempotencyLevel.NO_SIDE_EFFECTS).map((method) => method.name);
      if (reads.length > 0) readMethods.set(`${file.package}.${service.name}`, reads);
    }
  }
  return readMethods;
}

/** The method configs of the channel's service config (gRPC A6 retries): a retry policy on each read method of the service. */
export function readRetryMethodConfig(serviceName: string): object[] {
  const reads = readMethodsByService().get(serviceName) ?? [];
  return reads.length > 0 ? [{ name: reads.map((method) => ({ service: serviceName, method })), retryPolicy: READ_RETRY_POLICY }] : [];
}
