import { EventEmitter } from 'node:events';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { type RecordedQueryShape, recordQueryShapes } from './query-shape-recorder';

describe('recordQueryShapes', () => {
  let directory: string;
  beforeEach(() => {
    directory = mkdtempSync(path.join(tmpdir(), 'query-shapes-'));
  });
  afterEach(() => rmSync(directory, { recursive: true, force: true }));

  const recorded = (): RecordedQueryShape[] =>
    readdirSync(directory).flatMap((file) =>
      readFileSync(path.join(directory, file), 'utf8')
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line) as RecordedQueryShape),
    );

  it('appends each distinct shape once, signed with its source and pid', () => {
    const client = new EventEmitter();
    recordQueryShapes(client, { directory, source: 'test apps/x.int-spec.ts' });
    client.emit('commandStarted', { commandName: 'find', command: { find: 'tags', filter: { business_id: 'a' } } });
    client.emit('commandStarted', { commandName: 'find', command: { find: 'tags', filter: { business_id: 'b' } } });
    client.emit('commandStarted', { commandName: 'insert', command: { insert: 'tags', documents: [] } });
    client.emit('commandStarted', { commandName: 'find', command: { find: 'tags', filter: { business_id: 'a', name_key: 'x' } } });

    expect(readdirSync(directory)).toEqual([`test_apps_x.int-spec.ts-${process.pid}.jsonl`]);
    expect(recorded().map(({ source, pid, shape }) => [source, pid, shape.filter.fields])).toEqual([
      ['test apps/x.int-spec.ts', process.pid, { business_id: 'eq' }],
      ['test apps/x.int-spec.ts', process.pid, { business_id: 'eq', name_key: 'eq' }],
    ]);
  });

  it('never fails the command it watches', () => {
    const client = new EventEmitter();
    recordQueryShapes(client, { directory, source: 'conversations' });
    rmSync(directory, { recursive: true });
    const stderr = jest.spyOn(process.stderr, 'write').mockImplementation(() => true);
    try {
      expect(() => client.emit('commandStarted', { commandName: 'find', command: { find: 'tags', filter: {} } })).not.toThrow();
      expect(stderr).toHaveBeenCalledWith(expect.stringContaining('query shape recording'));
    } finally {
      stderr.mockRestore();
    }
  });
});
