/**
 * Temporary files the CLI must not leave behind: the `<output>.tmp-<pid>`
 * file of a build in progress. They are removed
 * when their job is done, on failure, and on SIGINT/SIGTERM/SIGHUP.
 */
import { rmSync } from 'node:fs';

const paths = new Set<string>();
let signalsHooked = false;

/** Removes `path` (a file or directory) now, ignoring "not there". */
export function removePath(path: string): void {
  try {
    rmSync(path, { recursive: true, force: true });
  } catch {
    // Best effort: nothing more can be done about a path that cannot be removed.
  }
  paths.delete(path);
}

/** Remembers `path` for removal if the process is interrupted. */
export function trackTemporary(path: string): void {
  paths.add(path);
  if (signalsHooked) return;
  signalsHooked = true;
  for (const [signal, number] of [
    ['SIGINT', 2],
    ['SIGTERM', 15],
    ['SIGHUP', 1],
  ] as const) {
    process.once(signal, () => {
      removeAllTemporary();
      process.exit(128 + number);
    });
  }
}

/** Removes every tracked path. */
export function removeAllTemporary(): void {
  for (const path of [...paths]) removePath(path);
}
