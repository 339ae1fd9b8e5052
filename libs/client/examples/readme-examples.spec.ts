import { readFileSync } from 'node:fs';
import path from 'node:path';
import * as client from '../src';

/** The README shows the example file's regions verbatim, so the code it shows is the code the suite runs. */
const readme = readFileSync(path.join(__dirname, '../README.md'), 'utf8');
const examples = readFileSync(path.join(__dirname, 'readme-examples.ts'), 'utf8');
const regions = new Map([...examples.matchAll(/\/\/ #region ([\w-]+)\n([\s\S]*?)\/\/ #endregion/g)].map((match) => [match[1]!, match[2]!]));
const shown = [...readme.matchAll(/<!-- example: ([\w-]+) -->\n```ts\n([\s\S]*?)```/g)].map((match) => [match[1]!, match[2]!] as const);

describe('the client README', () => {
  it('shows every example region once', () => {
    expect(regions.size).toBeGreaterThanOrEqual(5);
    expect(shown.map(([name]) => name).sort()).toEqual([...regions.keys()].sort());
  });

  it.each(shown.map(([name, code]) => [name, code]))('shows region %s exactly as the examples file has it', (name, code) => {
    expect(code).toBe(regions.get(name));
  });

  it('imports only what the package exports', () => {
    const imports = [...readme.matchAll(/import \{([^}]*)\} from '@cmsg\/client';/g)].flatMap((match) => match[1]!.split(','));
    const names = imports.map((name) => name.trim().replace(/^type /, '')).filter(Boolean);
    expect(names.length).toBeGreaterThan(0);
    const indexSource = readFileSync(path.join(__dirname, '../src/index.ts'), 'utf8');
    for (const name of names) expect({ name, exported: name in client || new RegExp(`\\b${name}\\b`).test(indexSource) }).toEqual({ name, exported: true });
  });
});
