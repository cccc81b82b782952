// The checker's shapes, shared by the code that checks (url-check.ts) and the code that
// shows the result (verdict-view.ts): a leaf of types only, so neither imports the other's
// module for them (the two imported each other before).
import type { UrlCheck, UrlVerdict } from 'cuckoo-bloom-wasm/reader';
import type { HostNames } from './host-name.ts';
import type { ListAge } from './manifest.ts';

/** What the checker needs of a list: UrlBlocklistReader (the preloaded list) and UrlBlocklist (your own) both are. */
export interface CheckableList {
  check(url: string): UrlCheck;
  readonly falsePositiveRate: number;
  /** The filter's rate per lookup (one expression): a URL's odds follow from its own count of lookups. */
  readonly lookupFalsePositiveRate: number;
  readonly entryCount: number;
  /** The filter type, as the bytes say ('binary-fuse', 'bloom', ...). */
  readonly type: string;
  readonly filter: { has(expression: string): boolean };
  readonly hasConfirmation: boolean;
  attachConfirmation(bytes: Uint8Array): void;
  /** The companion split by hash prefix: its index, and how to fetch one part ('0007'). */
  attachConfirmationParts(index: Uint8Array, fetchPart: (part: number, name: string) => Promise<Uint8Array>): void;
  /** check(url), fetching the companion's part(s) a maybe needs when it is split. */
  confirm(url: string): Promise<UrlCheck>;
  /** A list built in the page makes its own companion (UrlBlocklist); one read from bytes cannot. */
  confirmation?(): Uint8Array;
}

/** Which list answered, for the verdict's wording. */
export interface ListDescription {
  /** "URLhaus’s list of malicious URLs" */
  name: string;
  /** A snapshot's date and age (null for a list built in this page just now). */
  copy: (ListAge & { refresh: string | null }) | null;
  /**
   * The list's exact companion in parts: its index (small: fetched with the list) and one
   * part by file name ('0007'). Absent when the list makes its own (`confirmation()`).
   */
  companionParts?: { index: () => Promise<Uint8Array>; part: (name: string) => Promise<Uint8Array> };
}

/** The demo's verdicts: the library's three, and `invalid` for input that is not a URL. */
export type DemoVerdict = UrlVerdict | 'invalid';

/** One check, as shown: plain data, also what `window.demo.verdict()` returns. */
export interface Verdict {
  verdict: DemoVerdict;
  /** What the visitor typed. */
  input: string;
  /** The URL actually checked (recovered from pasted or defanged text), or null (`invalid`). */
  checked: string | null;
  /** What was done to the input to recover it ("encoded the spaces in its path"). */
  changes: string[];
  host: HostNames | null;
  canonical: string | null;
  expressions: string[];
  /** The confirmed entry (`listed`) or the filter's first maybe (`possible`); null otherwise. */
  match: string | null;
  /** Every expression the filter answered "maybe" for (a `clear` with some is a false positive caught). */
  maybes: string[];
  confirmedBy: 'exact-set' | null;
  /** Why the companion could not confirm a `possible`; why the input is `invalid`. */
  reason: string | null;
  /** The chance an unlisted URL with this many lookups gets a "maybe" (the list's per-lookup rate); null for `invalid`. */
  urlRate: number | null;
}
