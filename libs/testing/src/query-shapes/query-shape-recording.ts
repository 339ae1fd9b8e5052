import { rmSync } from 'node:fs';
import path from 'node:path';
import { WORKSPACE_ROOT } from '../infra-env';

// Imported by the jest global setup, which resolves no @cmsg/* paths: relative imports only.

/** The apps' variable (their config) and the test workers' (inherited from the jest global setup). */
export const QUERY_SHAPE_LOG_VARIABLE = 'CMSG_MONGO_SHAPE_LOG';
/** Where the integration suite records the query shapes, one file per sending process. */
export const QUERY_SHAPE_LOG_DIRECTORY = path.join(WORKSPACE_ROOT, '.run', 'query-shapes');
/** Shapes sent from inside a test worker are signed with this prefix and the test file. */
const IN_PROCESS_SOURCE_PREFIX = 'test ';

/** A new recording: the shapes of an earlier run would otherwise be checked again. */
export function startQueryShapeRecording(): string {
  rmSync(QUERY_SHAPE_LOG_DIRECTORY, { recursive: true, force: true });
  process.env[QUERY_SHAPE_LOG_VARIABLE] = QUERY_SHAPE_LOG_DIRECTORY;
  return QUERY_SHAPE_LOG_DIRECTORY;
}

/** How a test worker signs the shapes it sends itself (seeding, repositories under test, its own assertions). */
export function inProcessQueryShapeSource(testPath: string | undefined): string {
  return `${IN_PROCESS_SOURCE_PREFIX}${testPath ? path.relative(WORKSPACE_ROOT, testPath) : 'worker'}`;
}

export function isInProcessSource(source: string): boolean {
  return source.startsWith(IN_PROCESS_SOURCE_PREFIX);
}
