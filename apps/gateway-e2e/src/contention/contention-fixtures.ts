import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { generateApiToken } from '@cmsg/seed';
import { type ApiClient, type BusinessSeedInput, type TestBusiness, WORKSPACE_ROOT, createTestBusiness } from '@cmsg/testing';

/** Concurrent writers of every contention test (at least 50, as the issue asks). */
export const WRITERS = 50;

export interface ContendedBusiness extends TestBusiness {
  /** One client per writer, each with its own token: the 60 requests a minute are per token. */
  writers: ApiClient[];
}

export async function createContendedBusiness(customize: (seed: BusinessSeedInput) => void = () => undefined): Promise<ContendedBusiness> {
  const tokens = Array.from({ length: WRITERS }, () => ({ uuid: randomUUID(), token: generateApiToken() }));
  const business = await createTestBusiness((seed) => {
    seed.api_tokens!.push(...tokens);
    customize(seed);
  });
  return { ...business, writers: tokens.map((token) => business.api.withToken(token.token)) };
}

export interface Tally {
  writers: number;
  /** Effects the writes imply that are missing from the final state. */
  lost: number;
  /** Effects found more than once, or found though no write implies them. */
  twice: number;
}

/**
 * Compares what the writes imply (one id per expected effect) with what is observed (one id per
 * effect found: a stored row, a broadcast, a tag on the conversation), prints the figures and
 * keeps them in .run/contention/<name>.json for the record.
 */
export function tally(name: string, writers: number, expected: readonly string[], observed: readonly string[]): Tally {
  const seen = new Map<string, number>();
  for (const id of observed) seen.set(id, (seen.get(id) ?? 0) + 1);
  const result: Tally = {
    writers,
    lost: expected.filter((id) => !seen.has(id)).length,
    twice: [...seen.values()].filter((count) => count > 1).length + observed.filter((id) => !expected.includes(id)).length,
  };
  const directory = path.join(WORKSPACE_ROOT, '.run/contention');
  mkdirSync(directory, { recursive: true });
  writeFileSync(path.join(directory, `${name}.json`), `${JSON.stringify({ name, ...result, expected: expected.length, observed: observed.length })}\n`);
  process.stdout.write(`[contention] ${name}: writers ${result.writers}, lost ${result.lost}, twice ${result.twice}\n`);
  return result;
}

/** The answers' statuses, counted: { 200: 1, 409: 49 }. */
export function statusCounts(responses: readonly { status: number }[]): Record<number, number> {
  const counts: Record<number, number> = {};
  for (const response of responses) counts[response.status] = (counts[response.status] ?? 0) + 1;
  return counts;
}
