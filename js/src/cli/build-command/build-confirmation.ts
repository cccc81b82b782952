/**
 * `build --urls` writes the list's exact companion beside the filter, as
 * `<output>.confirm` (docs/CLI.md, https://github.com/cuckoo-bloom-wasm/cuckoo-bloom-wasm/blob/main/docs/URL-BLOCKLISTS.md "Verdicts"): the
 * Rice-coded hashes of every expression, which `query` (and
 * `attachConfirmation`) use to turn the filter's "maybe" into `listed` or
 * `clear`; and the same hashes split by hash prefix ("Confirming in parts"):
 * `<output>.confirm.parts/0000`, `0001`, ... (each under 4 KB) and their index
 * `<output>.confirm.index`, so a page fetches one part per "maybe". Written
 * atomically like the filter (a temporary, then a rename), and before it: a
 * companion is bound to its filter's checksum, so a build cut short between
 * them leaves files that `query` refuses, never ones that answer wrongly. The
 * parts go before their index, and parts left from an earlier, larger split
 * are removed after it (the new index would refuse them anyway).
 */
import { mkdir, readdir, rm } from 'node:fs/promises';
import { confirmationPartName, splitConfirmation } from '../../index.js';
import { writeFileAtomically } from '../updates/patch-files.js';

/** The companion's paths for a filter at `output`: the whole one, its temporary, the split's index and parts folder. */
export function confirmationFiles(output: string): { path: string; temporary: string; index: string; parts: string } {
  const path = `${output}.confirm`;
  return { path, temporary: `${path}.tmp-${process.pid}`, index: `${path}.index`, parts: `${path}.parts` };
}

/** The parts folder of a split whose index is at `indexPath` (`x.confirm.index` -> `x.confirm.parts`). */
export function partsFolderOf(indexPath: string): string {
  return `${indexPath.endsWith('.index') ? indexPath.slice(0, -'.index'.length) : indexPath}.parts`;
}

/** What the summary says of the split: where it is, how many parts, the largest, and all of it against the whole companion. */
export interface SplitFacts {
  index: string;
  indexBytes: number;
  parts: string;
  partCount: number;
  largestPartBytes: number;
  /** Index and parts together, over the whole companion's bytes. */
  splitOverWhole: number;
}

/** Writes `<output>.confirm.parts/NNNN`, `<output>.confirm.index`, then `<output>.confirm`. */
export async function writeConfirmation(output: string, bytes: Uint8Array): Promise<SplitFacts> {
  const files = confirmationFiles(output);
  const split = splitConfirmation(bytes);
  await mkdir(files.parts, { recursive: true });
  const names = new Set<string>();
  for (const [part, partBytes] of split.parts.entries()) {
    const name = confirmationPartName(part);
    names.add(name);
    await writeFileAtomically(`${files.parts}/${name}`, partBytes);
  }
  await writeFileAtomically(files.index, split.index);
  for (const name of await readdir(files.parts)) {
    if (/^\d{4,}$/.test(name) && !names.has(name)) await rm(`${files.parts}/${name}`, { force: true });
  }
  await writeFileAtomically(files.path, bytes);
  const total = split.index.length + split.parts.reduce((sum, part) => sum + part.length, 0);
  return {
    index: files.index,
    indexBytes: split.index.length,
    parts: files.parts,
    partCount: split.parts.length,
    largestPartBytes: Math.max(...split.parts.map((part) => part.length)),
    splitOverWhole: Number((total / bytes.length).toFixed(4)),
  };
}

/** What the summary says of the companion: its path, its bytes, bits per distinct expression, and its split. */
export interface ConfirmationFacts {
  path: string;
  bytes: number;
  bitsPerExpression: number;
  split?: SplitFacts;
}

export function confirmationFacts(output: string, bytes: Uint8Array, expressions: number, split?: SplitFacts): ConfirmationFacts {
  return {
    path: confirmationFiles(output).path,
    bytes: bytes.length,
    bitsPerExpression: expressions === 0 ? 0 : Number(((bytes.length * 8) / expressions).toFixed(2)),
    ...(split !== undefined ? { split } : {}),
  };
}
