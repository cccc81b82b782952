/**
 * The package version, read from the package.json beside dist/ (dist/cli.js
 * is ../package.json away from it, in the repository and when installed).
 */
import { readFileSync } from 'node:fs';

export function packageVersion(): string {
  try {
    const text = readFileSync(new URL('../package.json', import.meta.url), 'utf8');
    const pkg = JSON.parse(text) as { name?: unknown; version?: unknown };
    if (pkg.name === 'cuckoo-bloom-wasm' && typeof pkg.version === 'string') return pkg.version;
  } catch {
    // Fall through: a bundle copied away from its package.
  }
  return 'unknown';
}
