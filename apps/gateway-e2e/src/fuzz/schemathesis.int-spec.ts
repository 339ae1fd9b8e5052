import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import path from 'node:path';
import { buildOpenApiDocument } from '@cmsg/api-schemas';
import { generateApiToken } from '@cmsg/seed';
import { type TestBusiness, WORKSPACE_ROOT, contactSeed, createTestBusiness, integrationStack } from '@cmsg/testing';

/**
 * Schemathesis, an outside fuzzer, against the real stack (issue 31): every documented operation
 * with the examples of the document and data generated from its schemas, with a fixed seed and a
 * time bound here (`npm run fuzz` runs it longer). It fails on any 5xx, any answer off the document
 * (status, content type, headers, body schema), any invalid request accepted, and any of its
 * warnings (unusable patterns, operations it could not authenticate or reach); the configuration
 * and the token rotation are in tools/fuzz.
 *
 * Three warnings are about requests the schemas allow and rules the document states in words, so
 * an operation may carry one when its document explains it (EXPLAINED_WARNINGS); any other warning,
 * or one of these on an operation whose document does not explain it, fails.
 */
const SEED = process.env['CMSG_FUZZ_SEED'] ?? '20261129';
const MAX_SECONDS = Number(process.env['CMSG_SCHEMATHESIS_SECONDS'] ?? 90);
const SCHEMATHESIS = process.env['CMSG_SCHEMATHESIS'] ?? path.join(process.env['XDG_CACHE_HOME'] ?? path.join(homedir(), '.cache'), 'cmsg/schemathesis-venv/bin/schemathesis');
/** 60 requests a minute per token: the hooks give each request the next token. */
const TOKENS = 80;
const RESULTS = path.join(WORKSPACE_ROOT, '.run/test-results/schemathesis');

type DocumentedOperation = { security?: Array<Record<string, string[]>>; responses: Record<string, unknown> };
const document = buildOpenApiDocument();

/** The semantic rules the document states where a schema cannot: a generated value breaking one is refused. */
const SEMANTIC_RULES = [/INVALID_CURSOR/, /every address \(DNS\) is public/, /8 to 15 digits/, /filter language|INVALID_FILTER/];

const EXPLAINED_WARNINGS: Record<string, { why: string; explained(operation: DocumentedOperation, label: string): boolean }> = {
  'Missing test data': {
    why: 'made-up references answer the 404 of their kind (info.description, "References"), documented on the operation',
    explained: (operation) => '404' in operation.responses && document.info.description!.includes('**References**'),
  },
  'Schema validation mismatch': {
    why: 'most generated values break a rule its document states in words (a signed cursor, a public webhook URL, a phone of 8 to 15 digits, the filter language)',
    explained: (operation) => SEMANTIC_RULES.some((rule) => rule.test(JSON.stringify(operation)) || rule.test(JSON.stringify(referencedSchemas(operation)))),
  },
  'Authentication failed': {
    why:
      'the credential is not the API token (a signed URL, the chat platform signature), as its document says; or the token was accepted (a request with it got a success, 400, 409, 422 or the 404 of a reference, which only come after authentication) and the fuzzer warns because none of its valid-looking requests was served, each refused by a rule stated in words',
    explained: (operation, label) =>
      (!operation.security?.some((requirement) => 'bearerAuth' in requirement) && ('401' in operation.responses || '403' in operation.responses)) ||
      (tokenAccepted.get(label) ?? false),
  },
};
/**
 * Answers only an authenticated request gets (the token is checked before the body, the
 * references, the rules and the state): a success, 400 INVALID_REQUEST, 409, 422, and a 404 of a
 * reference of the business (CONVERSATION_NOT_FOUND...), which only a resolved token reaches. Not
 * 404 NOT_FOUND or 405 (a path or method the router knows nothing of is answered before
 * authentication), nor 429. A slow run may give an operation only a few requests, all made-up
 * references (2026-11-30: three 404 CONVERSATION_NOT_FOUND in 90 s for POST .../conversation/notes).
 */
const PAST_AUTHENTICATION = (status: number, code: string | null) =>
  (status >= 200 && status < 300) || status === 400 || status === 409 || status === 422 || (status === 404 && code !== null && code !== 'NOT_FOUND');
/** By schemathesis label: whether a request of the operation's own method, with the token, got an answer past authentication (the hooks' after_call log). */
const tokenAccepted = new Map<string, boolean>();

describe('Schemathesis against the real stack', () => {
  let business: TestBusiness;
  const tokens = Array.from({ length: TOKENS }, () => generateApiToken());

  beforeAll(async () => {
    business = await createTestBusiness((seed) => {
      seed.api_tokens = tokens.map((token) => ({ uuid: randomUUID(), token }));
      seed.contacts = [contactSeed(seed, { first_name: 'Ana', conversation: { uuid: randomUUID(), messages: [] } })];
    });
  });

  it(`finds no server error, no answer off the document and no warning (seed ${SEED}, ${MAX_SECONDS} s)`, async () => {
    mkdirSync(RESULTS, { recursive: true });
    const answersFile = path.join(RESULTS, 'answers.jsonl');
    writeFileSync(answersFile, '');
    const run = await runSchemathesis([
      '--config-file',
      path.join(WORKSPACE_ROOT, 'tools/fuzz/schemathesis.toml'),
      'run',
      `${integrationStack().gatewayUrls[0]}/v1/openapi.json`,
      '--seed',
      SEED,
      '--max-time',
      String(MAX_SECONDS),
      '--no-color',
      '--report',
      'junit',
      '--report-dir',
      RESULTS,
    ], {
      CMSG_FUZZ_HOOKS: path.join(WORKSPACE_ROOT, 'tools/fuzz/schemathesis_hooks.py'),
      CMSG_FUZZ_SLUG: business.slug,
      CMSG_FUZZ_TOKENS: tokens.join(','),
      CMSG_FUZZ_ANSWERS: answersFile,
    });
    writeFileSync(path.join(RESULTS, 'output.txt'), run.output);
    for (const line of readFileSync(answersFile, 'utf8').split('\n').filter(Boolean)) {
      const answer = JSON.parse(line) as { operation: string; method: string; with_token: boolean; status: number; code: string | null };
      const accepted = answer.with_token && answer.operation.startsWith(`${answer.method} `) && PAST_AUTHENTICATION(answer.status, answer.code);
      tokenAccepted.set(answer.operation, (tokenAccepted.get(answer.operation) ?? false) || accepted);
    }
    // The hooks saw the answers (else no operation could be explained by them).
    expect(tokenAccepted.size).toBeGreaterThan(0);
    const summary = run.output.slice(run.output.lastIndexOf('SUMMARY'));
    console.log(`schemathesis (seed ${SEED}, ${MAX_SECONDS} s), full output in ${path.relative(WORKSPACE_ROOT, RESULTS)}/output.txt:\n${summary}`);
    expect(summary).toMatch(/Test cases:\s+\d+ generated, \d+ passed/);
    expect(summary).not.toMatch(/Failures:|Errors:/);
    const warnings = warningsOf(run.output);
    // Every operation a warning counts was read from the output (the explanations below are checked for each).
    for (const { title, operations } of warnings) expect({ title, read: operations.length }).toEqual({ title, read: Number(/: (\d+) operations?/.exec(title)![1]) });
    const unexplained = warnings.flatMap(({ title, operations }) => {
      const rule = Object.entries(EXPLAINED_WARNINGS).find(([name]) => title.startsWith(name))?.[1];
      if (!rule) return [`${title} (not a warning the document can explain)`];
      return operations.filter((operation) => !rule.explained(operationOf(operation), operation)).map((operation) => `${title.split(':')[0]}: ${operation}`);
    });
    expect(unexplained).toEqual([]);
    // Any warning left fails the run (fail-on); the explained ones are told apart above.
    expect(run.exitCode === 0 || /Warnings:/.test(summary)).toBe(true);
  }, (MAX_SECONDS + 120) * 1000);
});

/** The operations each warning of the output names: `Title: ...` then `  - METHOD /path` lines. */
function warningsOf(output: string): Array<{ title: string; operations: string[] }> {
  const start = output.indexOf('WARNINGS ===');
  if (start < 0) return [];
  const section = output.slice(start, output.indexOf('SUMMARY ===', start)).split('\n').slice(1);
  const warnings: Array<{ title: string; operations: string[] }> = [];
  for (const line of section) {
    const operation = /^\s+- (GET|POST|PUT|PATCH|DELETE) (\S+)/.exec(line);
    if (operation) warnings.at(-1)?.operations.push(`${operation[1]} ${operation[2]}`);
    else if (/^[A-Z][^:]+: \d+ operations?/.test(line)) warnings.push({ title: line.trim(), operations: [] });
  }
  return warnings;
}

function operationOf(name: string): DocumentedOperation {
  const [method, path] = name.split(' ') as [string, string];
  const operation = (document.paths?.[path] as Record<string, DocumentedOperation> | undefined)?.[method.toLowerCase()];
  if (!operation) throw new Error(`schemathesis named ${name}, which the document does not have`);
  return operation;
}

/** The component schemas an operation refers to, one level deep (where field descriptions live). */
function referencedSchemas(operation: DocumentedOperation): unknown[] {
  const names = [...JSON.stringify(operation).matchAll(/#\/components\/schemas\/([^"]+)"/g)].map((match) => match[1]!);
  return names.map((name) => document.components?.schemas?.[name]);
}

function runSchemathesis(args: string[], env: Record<string, string>): Promise<{ exitCode: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    // Its example database (.schemathesis/) goes beside the reports, not into the checkout.
    const child = spawn(SCHEMATHESIS, args, { cwd: RESULTS, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('error', (error) => reject(new Error(`could not run ${SCHEMATHESIS} (tools/scripts/lib.sh ensure_schemathesis installs it): ${error.message}`)));
    child.on('close', (exitCode) => resolve({ exitCode, output }));
  });
}
