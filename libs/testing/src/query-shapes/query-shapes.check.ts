import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { WORKSPACE_ROOT } from '../infra-env';
import { declaredIndexesOf, gridFsIndexes, loadModels, modelSourceFiles } from './declared-indexes';
import { type DeclaredIndex, judgeQueryShape } from './index-serving';
import { type JudgedQueryShape, indexShapeReport, missing, sentBy } from './index-shape-report';
import { readQueryShapeLogs } from './query-shape-log';
import { QUERY_SHAPE_LOG_DIRECTORY, isInProcessSource } from './query-shape-recording';
import { UNINDEXED_QUERY_ALLOWLIST, allowanceFor } from './unindexed-query-allowlist';

/**
 * Run after the integration suite (jest.index-shapes.config.js): every query shape an app sent
 * during that run must be served by a declared index on MongoDB (docs/data-layer.md). The report
 * for the issue note goes to .run/index-shapes-report.md whatever the outcome.
 */
const REPORT_FILE = path.join(WORKSPACE_ROOT, '.run', 'index-shapes-report.md');

const observed = readQueryShapeLogs(QUERY_SHAPE_LOG_DIRECTORY);
const appShapes = observed.filter((shape) => shape.senders.some((sender) => !isInProcessSource(sender)));
let judged = new Map<string, JudgedQueryShape>();

beforeAll(async () => {
  const models = await loadModels(modelSourceFiles(WORKSPACE_ROOT));
  const declared = declaredIndexesOf(models);
  const collections = new Set(observed.map((shape) => shape.shape.collection));
  const indexes: DeclaredIndex[] = [...declared, ...[...collections].flatMap(gridFsIndexes)];
  judged = new Map(
    observed.map((shape) => [
      shape.description,
      {
        ...shape,
        verdict: judgeQueryShape(shape.shape, indexes),
        checked: appShapes.includes(shape),
        allowed: allowanceFor(shape.description),
      },
    ]),
  );
  const senders = [...new Set(observed.flatMap((shape) => shape.senders).filter((sender) => !isInProcessSource(sender)))].sort();
  mkdirSync(path.dirname(REPORT_FILE), { recursive: true });
  writeFileSync(
    REPORT_FILE,
    indexShapeReport([...judged.values()], { recordedIn: path.relative(WORKSPACE_ROOT, QUERY_SHAPE_LOG_DIRECTORY), senders, models: models.length, indexes: declared.length }),
  );
  process.stderr.write(`[index shapes] report: ${path.relative(WORKSPACE_ROOT, REPORT_FILE)}\n`);
});

describe('query shapes the apps sent during the integration run', () => {
  it('were recorded (run `npx jest -c jest.integration.config.js` first)', () => {
    expect(appShapes.length).toBeGreaterThan(0);
  });

  it('allowlist only shapes no index serves', () => {
    const needless = UNINDEXED_QUERY_ALLOWLIST.filter((entry) => judged.get(entry.shape)?.verdict.served);
    expect(needless.map((entry) => entry.shape)).toEqual([]);
  });

  const checked = appShapes.filter((shape) => !allowanceFor(shape.description));
  if (checked.length > 0) {
    it.each(checked.map((shape) => [shape.description, sentBy(shape.senders)]))('%s (sent by %s) is served by a declared index', (description) => {
      const { verdict } = judged.get(description)!;
      if (!verdict.served) throw new Error(`no declared index serves ${description}: ${missing(verdict)}`);
    });
  }
});
