import { type ChildProcess, spawn } from 'node:child_process';
import { createWriteStream, mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { WORKSPACE_ROOT } from './infra-env';
import { trackLeftoverProcess } from './leftover-processes';

/** One built app (dist/apps/<app>/main.js) running as a real child process, logs to a file. */
export class AppProcess {
  private child: ChildProcess | undefined;
  readonly logFile: string;

  constructor(
    readonly name: string,
    readonly app: string,
    private readonly env: Record<string, string>,
    logDir: string,
    /** Options for node itself (e.g. `--cpu-prof`, which NODE_OPTIONS does not accept). */
    private readonly nodeArgs: readonly string[] = [],
  ) {
    mkdirSync(logDir, { recursive: true });
    this.logFile = path.join(logDir, `${name}.log`);
  }

  start(): void {
    const log = createWriteStream(this.logFile, { flags: 'a' });
    this.child = spawn(process.execPath, [...this.nodeArgs, path.join(WORKSPACE_ROOT, 'dist/apps', this.app, 'main.js')], {
      cwd: WORKSPACE_ROOT,
      env: { ...process.env, ...this.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    // Both streams write to one file, which ends once both have: whichever ends first must not end it.
    this.child.stdout?.pipe(log, { end: false });
    this.child.stderr?.pipe(log, { end: false });
    this.child.once('close', () => log.end());
    const child = this.child;
    child.once('exit', trackLeftoverProcess(() => child.kill('SIGKILL')));
  }

  get pid(): number | undefined {
    return this.child?.pid;
  }

  /** Resolves with the exit code once the process is gone (null when a signal ended it). */
  exited(): Promise<number | null> {
    const child = this.child;
    if (!child) return Promise.reject(new Error(`${this.name} was never started`));
    if (!this.running) return Promise.resolve(child.exitCode);
    return new Promise((resolve) => child.once('exit', (code) => resolve(code)));
  }

  get running(): boolean {
    return !!this.child && this.child.exitCode === null && this.child.signalCode === null;
  }

  /** SIGTERM (graceful drain) or SIGKILL (crash); resolves when the process is gone. */
  stop(signal: NodeJS.Signals = 'SIGTERM', timeoutMs = 30000): Promise<void> {
    const child = this.child;
    if (!child || !this.running) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
      child.once('exit', () => {
        clearTimeout(timer);
        resolve();
      });
      child.kill(signal);
    });
  }

  logTail(lines = 40): string {
    try {
      return readFileSync(this.logFile, 'utf8').split('\n').slice(-lines).join('\n');
    } catch {
      return '(no log)';
    }
  }
}
