import { join } from 'node:path';
import { EXIT, runAdmin } from './admin-cli';

function capture() {
  const out: string[] = [];
  const err: string[] = [];
  return { io: { out: (text: string) => out.push(text), err: (text: string) => err.push(text) }, out, err };
}

// Nothing here reaches a database: every case fails (or finishes) before connecting.
describe('runAdmin without a database', () => {
  it('prints the usage for help', async () => {
    const { io, out } = capture();
    expect(await runAdmin(['help'], io)).toBe(EXIT.ok);
    expect(out.join()).toContain('token create --business <slug>');
  });

  it('exits 2 with the usage on a command-line mistake', async () => {
    const { io, err } = capture();
    expect(await runAdmin(['token', 'create'], io)).toBe(EXIT.usage);
    expect(err.join()).toMatch(/^error: --business is required\n\nusage:/);
  });

  it('exits 1 for a missing or invalid seed file', async () => {
    const missing = capture();
    expect(await runAdmin(['seed', '/nonexistent/seed.json'], missing.io)).toBe(EXIT.failed);
    expect(missing.err.join()).toMatch(/^error: cannot read seed file \/nonexistent\/seed.json: ENOENT/);

    const invalid = capture();
    expect(await runAdmin(['seed', join(__dirname, '../project.json')], invalid.io)).toBe(EXIT.failed);
    expect(invalid.err.join()).toMatch(/^error: invalid seed file:\n {2}businesses: Invalid input: expected array/);
  });

  it('exits 1 when MongoDB cannot be reached', async () => {
    const { io, err } = capture();
    expect(await runAdmin(['token', 'list', '--business', 'demo'], io, { MONGODB_URI: 'not-a-uri' })).toBe(EXIT.failed);
    expect(err.join()).toMatch(/^error: cannot reach MongoDB at not-a-uri \(.+\); is it up\? bash tools\/infra\/infra.sh up$/);
  });
});
