// Runs the stages of deploy/docker/Dockerfile as scripts in a temporary folder, for every APP, as
// a stand-in for `docker build` where no container engine runs (here and in CI): each stage gets
// its own root folder, and the Dockerfile's own instructions are carried out there: WORKDIR, ARG,
// ENV, COPY (from the context with Dockerfile.dockerignore applied, or --from another stage),
// RUN (sh -c, with the host's node and npm standing in for the base image's). Then, for each image:
//   - no package the lock file marks dev-only is in its node_modules;
//   - its CMD, started as the image's USER with a bad SHUTDOWN_GRACE_MS, exits on that config error
//     (so the bundle and every package it requires load from the pruned tree) rather than on a
//     missing module.
// Stages that use no build arg (the installs) run once for the four images and are kept as layers
// under CMSG_INFRA_HOME, keyed by their instructions and the context files they copy, as BuildKit
// would cache them: a source change reruns the builds only. The whole result is cached by a hash of
// every input, so an unchanged tree takes no time. RUN steps get a home folder of their own (the
// image's), so `npm cache clean` in a stage never touches the host's npm cache.
//
// Usage: node tools/deploy/run-image-stages.mjs [--force]
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const workspace = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../..');
const dockerfilePath = path.join(workspace, 'deploy/docker/Dockerfile');
const ignorePath = `${dockerfilePath}.dockerignore`;
const APPS = ['gateway', 'conversations', 'scheduler', 'actions-runner'];
const cacheDir = path.join(process.env.CMSG_INFRA_HOME ?? path.join(os.homedir(), '.cache/cmsg-infra'), 'image-stages');
const layersDir = path.join(cacheDir, 'layers');
// The host's npm settings (registry, CA file) for the npm inside the stages, whose HOME is not the host's.
const hostNpmrc = path.join(os.homedir(), '.npmrc');

function log(message) {
  console.log(`[image-stages] ${message}`);
}

/** Instructions of the Dockerfile: continuation lines joined, comments dropped. */
function parseDockerfile(text) {
  const instructions = [];
  let pending = '';
  for (const line of text.split('\n')) {
    if (!pending && /^\s*(#|$)/.test(line)) continue;
    if (line.endsWith('\\')) {
      // Docker joins a continued line to the next one without the backslash and newline.
      pending += line.slice(0, -1);
      continue;
    }
    const full = pending + line;
    pending = '';
    const match = /^\s*(\w+)\s+([\s\S]*)$/.exec(full);
    if (match) instructions.push({ keyword: match[1].toUpperCase(), args: match[2].trim() });
  }
  const globalArgs = {};
  const stages = [];
  for (const instruction of instructions) {
    if (instruction.keyword === 'FROM') {
      const [, base, name] = /^(\S+)(?:\s+AS\s+(\S+))?$/i.exec(instruction.args) ?? [];
      stages.push({ name, base, instructions: [] });
    } else if (stages.length === 0 && instruction.keyword === 'ARG') {
      const [name, value = ''] = instruction.args.split('=');
      globalArgs[name] = value;
    } else {
      stages.at(-1).instructions.push(instruction);
    }
  }
  return { globalArgs, stages };
}

function substitute(text, vars) {
  return text.replace(/\$\{(\w+)\}|\$(\w+)/g, (_, braced, bare) => vars[braced ?? bare] ?? '');
}

/** Dockerfile.dockerignore patterns as regular expressions over context-relative paths. */
function ignoreMatchers() {
  return fs
    .readFileSync(ignorePath, 'utf8')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line && !line.startsWith('#'))
    .map((pattern) => {
      const source = pattern
        .replace(/[.+^$()|[\]\\]/g, '\\$&')
        .replace(/\*\*\//g, '\u0000')
        .replace(/\*/g, '[^/]*')
        .replace(/\?/g, '[^/]')
        .replace(/\u0000/g, '(?:.*/)?');
      return new RegExp(`^${source}(?:/.*)?$`);
    });
}

const ignored = ignoreMatchers();
const isIgnored = (relative) => ignored.some((matcher) => matcher.test(relative));

/** Context-relative paths of the files under `relative` that the build context holds. */
function contextFiles(relative) {
  const absolute = path.join(workspace, relative);
  if (isIgnored(relative) || !fs.existsSync(absolute)) return [];
  if (!fs.statSync(absolute).isDirectory()) return [relative];
  return fs
    .readdirSync(absolute)
    .sort()
    .flatMap((entry) => contextFiles(path.join(relative, entry)));
}

function copyFile(from, to) {
  fs.mkdirSync(path.dirname(to), { recursive: true });
  fs.copyFileSync(from, to);
}

/** Hard links: a full copy of node_modules per stage would cost more than every other step, and
 * no step rewrites a file that it did not create. */
function copyTree(from, to) {
  fs.mkdirSync(to, { recursive: true });
  const linked = run('cp', ['-a', '--link', `${from}/.`, to]);
  // Across file systems hard links fail: copy instead.
  const result = linked.status === 0 ? linked : run('cp', ['-a', `${from}/.`, to]);
  if (result.status !== 0) throw new Error(`cp ${from} ${to}: ${result.output}`);
}

/** COPY semantics: a directory source copies its contents into dest. */
function copyInto(sources, dest) {
  for (const { root, relative } of sources) {
    const absolute = path.join(root, relative);
    if (!fs.existsSync(absolute)) throw new Error(`COPY: ${relative} does not exist`);
    if (fs.statSync(absolute).isDirectory()) {
      copyTree(absolute, dest);
    } else {
      copyFile(absolute, dest.endsWith('/') || sources.length > 1 ? path.join(dest, path.basename(relative)) : dest);
    }
  }
}

/** The host's environment for RUN, less what an enclosing npm script adds (npm_config_* would
 * steer the npm inside the stage). */
function hostEnv() {
  return Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('npm_')));
}

function run(command, args, options) {
  const result = spawnSync(command, args, { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024, ...options });
  return { status: result.status, output: `${result.stdout ?? ''}${result.stderr ?? ''}` };
}

/** Carries out one stage for the given build args; answers its root folder, user and command. */
function runStage(stage, buildArgs, done, workRoot) {
  const root = path.join(workRoot, `${stage.name}${stage.usesArgs ? `-${Object.values(buildArgs).join('-')}` : ''}`);
  const parent = done.get(stage.base);
  if (parent) {
    // A stage FROM another one starts from its files.
    copyTree(parent.root, root);
  } else {
    fs.mkdirSync(root, { recursive: true, mode: 0o755 });
  }
  // A stage inherits its base's ENV, never its ARGs (Docker scopes an ARG to the stage declaring it).
  const env = { ...(parent?.env ?? {}) };
  const vars = { ...env };
  let workdir = parent?.workdir ?? '/';
  let user = parent?.user ?? '0:0';
  let cmd = parent?.cmd;
  for (const { keyword, args } of stage.instructions) {
    const text = substitute(args, vars);
    switch (keyword) {
      case 'ARG': {
        const [name, value = ''] = args.split('=');
        vars[name] = buildArgs[name] ?? value;
        break;
      }
      case 'ENV':
        for (const [, name, value] of text.matchAll(/(\w+)=(\S+)/g)) env[name] = value;
        Object.assign(vars, env);
        break;
      case 'WORKDIR':
        workdir = path.posix.resolve(workdir, text);
        fs.mkdirSync(path.join(root, workdir), { recursive: true });
        break;
      case 'COPY': {
        const words = text.split(/\s+/);
        const from = words[0].startsWith('--from=') ? words.shift().slice('--from='.length) : undefined;
        const destWord = words.pop();
        const dest = path.join(root, path.posix.resolve(workdir, destWord)) + (destWord.endsWith('/') ? '/' : '');
        const sources = from
          ? words.map((source) => ({ root: done.get(from).root, relative: source }))
          : words.flatMap((source) => contextFiles(source.replace(/\/$/, '')).map((file) => ({ root: workspace, relative: file, top: source })));
        if (from) copyInto(sources, dest);
        else for (const source of sources) copyFile(path.join(workspace, source.relative), path.join(dest, path.relative(source.top, source.relative) || path.basename(source.relative)));
        break;
      }
      case 'RUN': {
        log(`${stage.name}: RUN ${text.replace(/\s+/g, ' ').slice(0, 100)}`);
        const home = path.join(path.dirname(root), 'home');
        fs.mkdirSync(home, { recursive: true });
        const npmrc = fs.existsSync(hostNpmrc) ? { npm_config_userconfig: hostNpmrc } : {};
        const result = run('/bin/sh', ['-c', args], { cwd: path.join(root, workdir), env: { ...hostEnv(), HOME: home, ...npmrc, ...vars, ...env } });
        if (result.status !== 0) throw new Error(`${stage.name}: RUN failed (exit ${result.status}):\n${result.output.slice(-4000)}`);
        break;
      }
      case 'USER':
        user = text;
        break;
      case 'CMD':
        cmd = JSON.parse(text);
        break;
      case 'LABEL':
      case 'EXPOSE':
        break;
      default:
        throw new Error(`${stage.name}: ${keyword} is not supported by this stand-in for docker build`);
    }
  }
  return { root, env, workdir, user, cmd };
}

/** Context-relative files that a COPY instruction (not --from) takes from the context. */
function copiedContextFiles(copyArgs) {
  return copyArgs
    .split(/\s+/)
    .slice(0, -1)
    .flatMap((source) => contextFiles(source.replace(/\/$/, '')));
}

/** A stage that takes no build arg, from its layer when its base, instructions and copied files are unchanged. */
function sharedStage(stage, done, workRoot) {
  const parent = done.get(stage.base);
  const hash = createHash('sha256').update(parent?.key ?? stage.base);
  for (const { keyword, args } of stage.instructions) {
    hash.update(`${keyword} ${args}\n`);
    if (keyword === 'COPY' && !args.startsWith('--from=')) {
      for (const file of copiedContextFiles(args)) hash.update(`${file}\0`).update(fs.readFileSync(path.join(workspace, file)));
    }
  }
  const key = `${stage.name}-${hash.digest('hex').slice(0, 16)}`;
  const layer = path.join(layersDir, key);
  if (fs.existsSync(path.join(layer, 'stage.json'))) {
    log(`${stage.name}: layer ${key} reused`);
    return { ...JSON.parse(fs.readFileSync(path.join(layer, 'stage.json'), 'utf8')), root: path.join(layer, 'root'), key };
  }
  const result = runStage(stage, {}, done, workRoot);
  fs.mkdirSync(layersDir, { recursive: true });
  for (const old of fs.readdirSync(layersDir).filter((name) => name.startsWith(`${stage.name}-`))) fs.rmSync(path.join(layersDir, old), { recursive: true, force: true });
  fs.mkdirSync(`${layer}.tmp`, { recursive: true });
  copyTree(result.root, path.join(`${layer}.tmp`, 'root'));
  const { root: _root, ...state } = result;
  fs.writeFileSync(path.join(`${layer}.tmp`, 'stage.json'), JSON.stringify(state));
  fs.renameSync(`${layer}.tmp`, layer);
  return { ...result, key };
}

/** Every lock file package marked dev-only that the image's node_modules holds anyway. */
function devPackagesIn(appRoot) {
  const lock = JSON.parse(fs.readFileSync(path.join(workspace, 'package-lock.json'), 'utf8'));
  return Object.entries(lock.packages)
    .filter(([location, entry]) => location && entry.dev && fs.existsSync(path.join(appRoot, location)))
    .map(([location]) => location);
}

/** Starts the image's CMD as its USER with a bad config; the app must exit on that error. */
function checkStarts(app, image) {
  const [uid, gid] = image.user.split(':');
  const cwd = path.join(image.root, image.workdir);
  const result = run('setpriv', [`--reuid=${uid}`, `--regid=${gid}`, '--clear-groups', ...image.cmd], {
    cwd,
    env: { PATH: process.env.PATH, ...image.env, SHUTDOWN_GRACE_MS: 'not-a-number' },
    timeout: 60_000,
  });
  const loaded = /Invalid configuration: .*SHUTDOWN_GRACE_MS/.test(result.output) && !/Cannot find module|ERR_MODULE_NOT_FOUND/.test(result.output);
  if (result.status === 0 || !loaded) {
    throw new Error(`${app}: \`${image.cmd.join(' ')}\` as ${image.user} did not stop on its config error (exit ${result.status}):\n${result.output.slice(-3000)}`);
  }
  log(`${app}: \`${image.cmd.join(' ')}\` as user ${image.user} loads and exits ${result.status} on "Invalid configuration: SHUTDOWN_GRACE_MS ..."`);
}

function inputsHash(dockerfile) {
  const hash = createHash('sha256');
  const copied = dockerfile.stages.flatMap((stage) =>
    stage.instructions.filter((i) => i.keyword === 'COPY' && !i.args.startsWith('--from=')).flatMap((i) => copiedContextFiles(i.args)),
  );
  const files = [...new Set([...copied, 'deploy/docker/Dockerfile', 'deploy/docker/Dockerfile.dockerignore', 'tools/deploy/run-image-stages.mjs'])];
  for (const file of files.sort()) hash.update(`${file}\0`).update(fs.readFileSync(path.join(workspace, file))).update('\0');
  return hash.update(process.version).digest('hex').slice(0, 24);
}

function main() {
  const dockerfile = parseDockerfile(fs.readFileSync(dockerfilePath, 'utf8'));
  for (const stage of dockerfile.stages) {
    stage.base = substitute(stage.base, dockerfile.globalArgs);
    stage.usesArgs = stage.instructions.some((i) => i.keyword === 'ARG');
  }
  const hash = inputsHash(dockerfile);
  const marker = path.join(cacheDir, `${hash}.ok`);
  if (!process.argv.includes('--force') && fs.existsSync(marker)) {
    log(`unchanged inputs (${hash}); last run:`);
    process.stdout.write(fs.readFileSync(marker, 'utf8'));
    return;
  }
  const imageNode = /^node:(\d+)/.exec(dockerfile.stages[0].base)?.[1];
  if (imageNode && process.versions.node.split('.')[0] !== imageNode) log(`note: host node ${process.version} stands in for the image's ${dockerfile.stages[0].base}`);

  const workRoot = fs.mkdtempSync(path.join(os.tmpdir(), 'cmsg-image-stages-'));
  fs.chmodSync(workRoot, 0o755);
  const report = [];
  try {
    const shared = new Map();
    for (const app of APPS) {
      const done = new Map();
      for (const stage of dockerfile.stages) {
        const result = stage.usesArgs ? runStage(stage, { APP: app }, done, workRoot) : (shared.get(stage.name) ?? sharedStage(stage, done, workRoot));
        if (!stage.usesArgs) shared.set(stage.name, result);
        done.set(stage.name, result);
      }
      const image = done.get(dockerfile.stages.at(-1).name);
      const devPackages = devPackagesIn(path.join(image.root, image.workdir));
      if (devPackages.length > 0) throw new Error(`${app}: dev-only packages in the image: ${devPackages.slice(0, 10).join(', ')}`);
      const packages = fs.readdirSync(path.join(image.root, image.workdir, 'node_modules')).filter((entry) => !entry.startsWith('.')).length;
      log(`${app}: image tree has ${packages} top-level node_modules entries, no dev-only package`);
      checkStarts(app, image);
      report.push(`${app}: stages ${dockerfile.stages.map((s) => s.name).join(' -> ')} ran; no dev-only package; CMD loads as ${image.user} and stops on its config error`);
    }
  } finally {
    fs.rmSync(workRoot, { recursive: true, force: true });
  }
  const summary = `${report.join('\n')}\n`;
  fs.mkdirSync(cacheDir, { recursive: true });
  fs.writeFileSync(marker, summary);
  process.stdout.write(summary);
}

try {
  main();
} catch (error) {
  console.error(`[image-stages] FAILED: ${error.message}`);
  process.exit(1);
}
