// The package as users get it, made once per Jest run: `npm pack` of what dist/ holds now,
// installed into an empty project. tests/package/package.test.mjs and the docs suites
// (tests/docs: every code block and link of the shipped docs) share it, so a run packs and
// installs once, not once per suite.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll } from '@jest/globals';

export const REPO = fileURLToPath(new URL('../..', import.meta.url));

const PREFIX = 'cbw-installed-';
const STALE_LOCK_MS = 300_000; // longer than a pack and install take on a loaded machine

function run(command, args, options = {}) {
  return execFileSync(command, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], timeout: 240_000, ...options });
}

/**
 * Registers a beforeAll that makes (or waits for) this run's installed package, and returns
 * { workspace, consumer, packed, installed }, filled in once beforeAll has run:
 *   workspace  the temporary folder holding the tarball and the consumer project
 *   consumer   the project the tarball is installed into (package.json, node_modules/)
 *   packed     npm pack --json's entry for the tarball (files, sizes, unpackedSize)
 *   installed  consumer/node_modules/cuckoo-bloom-wasm
 * Suites write their own files into the consumer, each under names of its own.
 */
export function useInstalledPackage() {
  const result = { workspace: null, consumer: null, packed: null, installed: null };
  let own = false; // a workspace made for this suite alone (no run id): removed after it
  beforeAll(() => {
    const runId = process.env.CBW_JEST_RUN; // tests/global-setup.mjs: one id per Jest run
    own = runId === undefined;
    const workspace = own ? mkdtempSync(join(tmpdir(), 'cbw-package-')) : join(tmpdir(), `${PREFIX}${runId}`);
    Object.assign(result, installOnce(workspace, own));
  }, 300_000);
  afterAll(() => {
    if (own && result.workspace) rmSync(result.workspace, { recursive: true, force: true });
  });
  return result;
}

/**
 * Packs and installs into `workspace` unless another suite of this run already did (a lock
 * directory lets one suite work while the others wait). Removes the workspaces of earlier
 * runs first: a run's workspace outlives its last suite (no suite knows it is the last).
 */
function installOnce(workspace, fresh) {
  const done = join(workspace, 'packed.json'); // written last: its presence means ready
  const lock = `${workspace}.lock`;
  const ready = () => existsSync(done);
  for (;;) {
    if (ready()) break;
    try {
      mkdirSync(lock);
    } catch {
      if (existsSync(lock) && Date.now() - statSync(lock).mtimeMs > STALE_LOCK_MS) rmSync(lock, { recursive: true, force: true });
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 250);
      continue;
    }
    try {
      if (!ready()) {
        if (!fresh) removeEarlierRuns(workspace);
        packAndInstall(workspace);
      }
      break;
    } finally {
      rmSync(lock, { recursive: true, force: true });
    }
  }
  const consumer = join(workspace, 'consumer');
  return {
    workspace,
    consumer,
    packed: JSON.parse(readFileSync(done, 'utf8')),
    installed: join(consumer, 'node_modules', 'cuckoo-bloom-wasm'),
  };
}

function packAndInstall(workspace) {
  rmSync(workspace, { recursive: true, force: true });
  const consumer = join(workspace, 'consumer');
  mkdirSync(consumer, { recursive: true });
  // --ignore-scripts: pack exactly what dist/ holds now (the suites run against dist/).
  const output = run('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', workspace], { cwd: REPO });
  const packed = JSON.parse(output.slice(output.indexOf('[')))[0];
  writeFileSync(join(consumer, 'package.json'), JSON.stringify({ name: 'consumer', version: '1.0.0', private: true }));
  const install = ['install', '--no-audit', '--no-fund', '--ignore-scripts', '--loglevel=error'];
  const tarball = join(workspace, packed.filename);
  try {
    // The one runtime dependency (psl, for the CLI) is in npm's cache after the project's own install.
    run('npm', [...install, '--offline', tarball], { cwd: consumer });
  } catch {
    run('npm', [...install, tarball], { cwd: consumer });
  }
  writeFileSync(join(workspace, 'packed.json'), JSON.stringify(packed));
}

/** The workspaces of runs whose Jest process is gone (the id is `<pid>-<start time>`). */
function removeEarlierRuns(current) {
  for (const name of readdirSync(tmpdir())) {
    const match = new RegExp(`^${PREFIX}(\\d+)-\\d+$`).exec(name);
    const path = join(tmpdir(), name);
    if (!match || path === current || alive(Number(match[1]))) continue;
    rmSync(path, { recursive: true, force: true });
  }
}

function alive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return error.code === 'EPERM';
  }
}
