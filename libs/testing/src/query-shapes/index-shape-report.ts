import { describeIndex, type ShapeVerdict } from './index-serving';
import type { ObservedQueryShape } from './query-shape-log';
import { isInProcessSource } from './query-shape-recording';
import type { AllowedUnindexedQuery } from './unindexed-query-allowlist';

export interface JudgedQueryShape extends ObservedQueryShape {
  verdict: ShapeVerdict;
  /** Sent by an app process (checked), not only from inside a test worker (reported). */
  checked: boolean;
  allowed: AllowedUnindexedQuery | undefined;
}

export interface IndexShapeReportContext {
  recordedIn: string;
  senders: string[];
  models: number;
  indexes: number;
}

/** Markdown for the issue note: each query shape and the index that serves it, the unserved first. */
export function indexShapeReport(shapes: readonly JudgedQueryShape[], context: IndexShapeReportContext): string {
  const checked = shapes.filter((shape) => shape.checked);
  const unserved = checked.filter((shape) => !shape.verdict.served && !shape.allowed);
  const allowed = checked.filter((shape) => !shape.verdict.served && shape.allowed);
  const served = checked.filter((shape) => shape.verdict.served);
  const inProcess = shapes.filter((shape) => !shape.checked);
  return [
    '# Query shapes and the indexes that serve them',
    '',
    `Recorded by driver command monitoring in ${context.recordedIn} from ${context.senders.length} processes (${context.senders.join(', ')}); ` +
      `${context.indexes} indexes declared on ${context.models} models (each one's _id index included; GridFS collections get the driver's). Rule: docs/data-layer.md ` +
      '(equality fields, then the sort in the index order or all reversed, then one range, or for a sorted read conditions on keys after the sort; equality on every key of a unique index; `$in` is an equality).',
    '',
    `${checked.length} shapes sent by the apps: ${served.length} served, ${unserved.length} unserved, ${allowed.length} allowlisted.`,
    '',
    `## Unserved (${unserved.length})`,
    '',
    table(['query shape', 'sent by', 'what is missing'], unserved.map((shape) => [shape.description, sentBy(shape.senders), missing(shape.verdict)])),
    '',
    `## Allowlisted (${allowed.length})`,
    '',
    table(['query shape', 'sent by', 'reason'], allowed.map((shape) => [shape.description, sentBy(shape.senders), shape.allowed!.reason])),
    '',
    `## Served (${served.length})`,
    '',
    table(['query shape', 'index that serves it', 'sent by'], served.map((shape) => [shape.description, servingIndexes(shape.verdict), sentBy(shape.senders)])),
    '',
    `## Sent only from inside test workers (${inProcess.length}; not checked)`,
    '',
    'Seeding, repositories called by a test, and the tests\' own assertions share the worker\'s connection, so their commands cannot be told apart.',
    '',
    table(['query shape', 'verdict', 'sent by'], inProcess.map((shape) => [shape.description, shape.verdict.served ? servingIndexes(shape.verdict) : `UNSERVED: ${missing(shape.verdict)}`, sentBy(shape.senders)])),
    '',
  ].join('\n');
}

/** The apps by name, the test files by count (a shape many tests send would list them all). */
export function sentBy(senders: readonly string[]): string {
  const apps = senders.filter((sender) => !isInProcessSource(sender));
  const tests = senders.filter(isInProcessSource);
  if (apps.length === 0) return tests.length <= 2 ? tests.join(', ') : `${tests.slice(0, 2).join(', ')} (+${tests.length - 2} more test files)`;
  return tests.length === 0 ? apps.join(', ') : `${apps.join(', ')} (+${tests.length} test file${tests.length === 1 ? '' : 's'})`;
}

export function servingIndexes(verdict: ShapeVerdict): string {
  const named = verdict.alternatives.map((alternative) => (alternative.index ? describeIndex(alternative.index) : alternative.how));
  return [...new Set(named)].join('; ');
}

export function missing(verdict: ShapeVerdict): string {
  return verdict.alternatives
    .filter((alternative) => !alternative.served)
    .map((alternative) => (verdict.alternatives.length > 1 ? `$or branch {${Object.keys(alternative.conditions).join(', ')}}: ${alternative.how}` : alternative.how))
    .join('; ');
}

function table(header: string[], rows: string[][]): string {
  if (rows.length === 0) return '(none)';
  const escape = (text: string) => text.replace(/\|/g, '\\|');
  const lines = rows.map(([shape, ...rest]) => `| \`${escape(shape!)}\` | ${rest.map(escape).join(' | ')} |`);
  return [`| ${header.join(' | ')} |`, `| ${header.map(() => '---').join(' | ')} |`, ...lines].join('\n');
}
