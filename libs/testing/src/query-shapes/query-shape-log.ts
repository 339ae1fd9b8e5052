import { existsSync, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { type QueryShape, type RecordedQueryShape, describeQueryShape } from '@cmsg/dal';

/** One distinct shape and every process that sent it. */
export interface ObservedQueryShape {
  description: string;
  shape: QueryShape;
  senders: string[];
}

/** The shapes recorded in `directory`, each once, in a stable order. */
export function readQueryShapeLogs(directory: string): ObservedQueryShape[] {
  if (!existsSync(directory)) return [];
  const byDescription = new Map<string, ObservedQueryShape>();
  for (const file of readdirSync(directory).filter((name) => name.endsWith('.jsonl'))) {
    for (const line of readFileSync(path.join(directory, file), 'utf8').split('\n')) {
      if (line.trim() === '') continue;
      const { source, shape } = JSON.parse(line) as RecordedQueryShape;
      const description = describeQueryShape(shape);
      const observed = byDescription.get(description) ?? { description, shape, senders: [] };
      if (!observed.senders.includes(source)) observed.senders.push(source);
      byDescription.set(description, observed);
    }
  }
  return [...byDescription.values()]
    .map((observed) => ({ ...observed, senders: observed.senders.sort() }))
    .sort((a, b) => a.description.localeCompare(b.description));
}
