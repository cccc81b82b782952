// The package as users get it: `npm pack` of the repo (dist/ as built, so run
// `npm run build` first), installed from the tarball into an empty temp folder.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO = fileURLToPath(new URL('../../..', import.meta.url));

export function run(command, args, options = {}) {
  return execFileSync(command, args, {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
    timeout: 120_000,
    ...options,
  });
}

/** Runs a command and returns its stdout+stderr, whether it failed or not, with its exit status. */
export function runCapturing(command, args, options = {}) {
  try {
    return { status: 0, output: run(command, args, options) };
  } catch (error) {
    return { status: error.status ?? 1, output: `${error.stdout ?? ''}${error.stderr ?? ''}` };
  }
}

/**
 * Packs the repo and installs the tarball into `<temp>/consumer`.
 * Returns { workspace, consumer, tarball, remove() }.
 */
export function packAndInstall(prefix) {
  const workspace = mkdtempSync(join(tmpdir(), prefix));
  const consumer = join(workspace, 'consumer');
  mkdirSync(consumer, { recursive: true });
  // --ignore-scripts: pack dist/ as built; prepack would rebuild it.
  const packed = run('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', workspace], { cwd: REPO });
  const tarball = join(workspace, JSON.parse(packed.slice(packed.indexOf('[')))[0].filename);
  writeFileSync(join(consumer, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }));
  const install = ['install', '--no-audit', '--no-fund', '--ignore-scripts', '--loglevel=error'];
  try {
    // The package has no dependencies, so nothing needs the network.
    run('npm', [...install, '--offline', tarball], { cwd: consumer });
  } catch {
    run('npm', [...install, tarball], { cwd: consumer });
  }
  return { workspace, consumer, tarball, remove: () => rmSync(workspace, { recursive: true, force: true }) };
}

/** Bundles `entry` (relative to the consumer folder) into `outDir` with tools/bundle.mjs. */
export function bundle(bundler, consumer, entry, outDir) {
  const script = fileURLToPath(new URL('./bundle.mjs', import.meta.url));
  const output = run(process.execPath, [script, bundler, consumer, entry, outDir], { cwd: REPO, timeout: 180_000 });
  return JSON.parse(output.trim().split('\n').pop());
}
