/**
 * `build --urls` writes the list's exact companion beside the filter, as
 * `<output>.confirm` (docs/CLI.md, docs/URL-BLOCKLISTS.md "Verdicts"): the
 * Rice-coded hashes of every expression, which `query` (and
 * `attachConfirmation`) use to turn the filter's "maybe" into `listed` or
 * `clear`. Written atomically like the filter (a temporary, then a rename),
 * and before it: a companion is bound to its filter's checksum, so a build
 * cut short between the two leaves a pair that `query` refuses, never one
 * that answers wrongly.
 */
import { writeFileAtomically } from '../updates/patch-files.js';

/** The companion's path for a filter at `output`, and its temporary. */
export function confirmationFiles(output: string): { path: string; temporary: string } {
  const path = `${output}.confirm`;
  return { path, temporary: `${path}.tmp-${process.pid}` };
}

/** Writes the companion bytes through a temporary renamed over `<output>.confirm`. */
export async function writeConfirmation(output: string, bytes: Uint8Array): Promise<void> {
  await writeFileAtomically(confirmationFiles(output).path, bytes);
}

/** What the summary says of the companion: its path, its bytes, and bits per distinct expression. */
export interface ConfirmationFacts {
  path: string;
  bytes: number;
  bitsPerExpression: number;
}

export function confirmationFacts(output: string, bytes: Uint8Array, expressions: number): ConfirmationFacts {
  return {
    path: confirmationFiles(output).path,
    bytes: bytes.length,
    bitsPerExpression: expressions === 0 ? 0 : Number(((bytes.length * 8) / expressions).toFixed(2)),
  };
}
