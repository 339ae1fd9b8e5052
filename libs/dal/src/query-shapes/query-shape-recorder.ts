import { appendFileSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { type QueryShape, describeQueryShape, queryShapesOf } from './query-shape';

/** Where a process appends the query shapes it sends, and the name it signs them with. */
export interface QueryShapeLog {
  directory: string;
  /** The sending process (`conversations`, `scheduler`, a test file...). */
  source: string;
}

/** One line of a shape log. */
export interface RecordedQueryShape {
  source: string;
  pid: number;
  shape: QueryShape;
}

interface CommandStartedEvent {
  commandName: string;
  command: Record<string, unknown>;
}

interface CommandMonitor {
  on(event: 'commandStarted', listener: (event: CommandStartedEvent) => void): unknown;
}

/**
 * Appends one JSON line per distinct query shape this process sends to `<directory>/<source>-<pid>.jsonl`
 * (the client must be connected with `monitorCommands: true`). Shapes are deduplicated in memory,
 * so a command costs a shape extraction and a set lookup; only a first sighting writes, synchronously,
 * so a process killed by a test still leaves every shape it sent.
 */
export function recordQueryShapes(client: CommandMonitor, log: QueryShapeLog): void {
  mkdirSync(log.directory, { recursive: true });
  const file = path.join(log.directory, `${log.source.replace(/[^\w.-]+/g, '_')}-${process.pid}.jsonl`);
  const seen = new Set<string>();
  let failed = false;
  client.on('commandStarted', (event) => {
    try {
      for (const shape of queryShapesOf(event.commandName, event.command)) {
        const description = describeQueryShape(shape);
        if (seen.has(description)) continue;
        seen.add(description);
        const line: RecordedQueryShape = { source: log.source, pid: process.pid, shape };
        appendFileSync(file, `${JSON.stringify(line)}\n`);
      }
    } catch (error) {
      // A listener that throws would fail the command it watches: the recording gives up instead, once, loudly.
      if (!failed) process.stderr.write(`query shape recording to ${file} failed: ${(error as Error).message}\n`);
      failed = true;
    }
  });
}
