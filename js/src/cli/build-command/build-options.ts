// What `build` was asked to do, parsed from its arguments: a leaf, read by the
// filter build (build.ts), its shared passes (build-steps.ts) and the exact build.
import type { ListFormat } from '../../index.js';
import type { BuildType } from '../args.js';

export interface BuildOptions {
  input: string;
  output: string;
  /** The type named, or with --urls 'smallest' (the default there): the smallest static type for the list. */
  type: BuildType;
  /** Whether --type was given. */
  typeGiven: boolean;
  falsePositiveRate: number;
  capacity: number | null;
  seed: number;
  urls: boolean;
  format: ListFormat;
  /** --never-match files (with --urls; the Public Suffix List is always guarded). */
  neverMatch: string[];
  json: boolean;
  quiet: boolean;
  /** Build even from input that looks binary or holds no key. */
  force: boolean;
  /** Write an exact index log (FileCuckooIndex) instead of a filter. */
  exact: boolean;
  debugMemory: boolean;
}
