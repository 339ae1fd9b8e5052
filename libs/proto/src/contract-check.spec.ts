import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

const PROTO_LIB = path.resolve(__dirname, '..');
const SCRIPT = path.join(PROTO_LIB, 'scripts/check-contract.sh');
const CONVERSATIONS_PROTO = 'proto/cmsg/conversations/v1/conversations.proto';

/** Runs the npm test contract check on a copy of libs/proto changed by `edit`. */
function checkCopy(edit: (source: string) => string): { passed: boolean; output: string } {
  const copy = mkdtempSync(path.join(tmpdir(), 'cmsg-proto-'));
  try {
    cpSync(path.join(PROTO_LIB, 'buf.yaml'), path.join(copy, 'buf.yaml'));
    cpSync(path.join(PROTO_LIB, 'proto'), path.join(copy, 'proto'), { recursive: true });
    const file = path.join(copy, CONVERSATIONS_PROTO);
    const before = readFileSync(file, 'utf8');
    const after = edit(before);
    expect(after).not.toBe(before);
    writeFileSync(file, after);
    try {
      return { passed: true, output: execFileSync('bash', [SCRIPT, copy], { encoding: 'utf8', stdio: 'pipe' }) };
    } catch (error) {
      const failed = error as { stdout: string; stderr: string };
      return { passed: false, output: `${failed.stdout}${failed.stderr}` };
    }
  } finally {
    rmSync(copy, { recursive: true, force: true });
  }
}

describe('contract check (buf lint + buf breaking against libs/proto/published)', () => {
  it('passes on the .proto files as they are', () => {
    expect(execFileSync('bash', [SCRIPT], { encoding: 'utf8' })).toContain('passed');
  });

  it('passes an additive change (a new optional field)', () => {
    expect(checkCopy((source) => source.replace('  string token_uuid = 2;\n}', '  string token_uuid = 2;\n  string caller_note = 3;\n}')).passed).toBe(true);
  });

  it('fails when a field is removed', () => {
    const result = checkCopy((source) => source.replace('  string token_uuid = 2;\n}', '}'));
    expect(result).toEqual({ passed: false, output: expect.stringContaining('Previously present field "2" with name "token_uuid" on message "Caller" was deleted') });
  });

  it('fails when a field is renumbered', () => {
    const result = checkCopy((source) => source.replace('  string token_uuid = 2;\n}', '  string token_uuid = 7;\n}'));
    expect(result).toEqual({ passed: false, output: expect.stringContaining('"Caller"') });
    expect(result.output).toMatch(/deleted|changed/);
  });

  it('fails when a field changes type', () => {
    const result = checkCopy((source) => source.replace('  string token_uuid = 2;\n}', '  int64 token_uuid = 2;\n}'));
    expect(result).toEqual({ passed: false, output: expect.stringContaining('changed type from "string" to "int64"') });
  });

  it('fails lint on a new name that breaks the style rules', () => {
    const result = checkCopy((source) => source.replace('message Caller {', 'message caller_info {\n  string x = 1;\n}\n\nmessage Caller {'));
    expect(result).toEqual({ passed: false, output: expect.stringContaining('should be PascalCase') });
  });
});
