// What build.mjs knows about the preloaded list: inlined in index.html as a JSON data block
// (no request before the first verdict), and how old that copy is.
import type { BlocklistFilterType } from 'cuckoo-bloom-wasm';

export interface Example {
  kind: 'listed-host' | 'listed-url' | 'ordinary';
  url: string;
  /** The list entry (expression) the URL matches, or null for an ordinary site. */
  entry: string | null;
}

export interface Manifest {
  title: string;
  source: string;
  homepage: string;
  license: string;
  licenseUrl: string;
  /** When the source last updated the list (ISO 8601), from its header. */
  updated: string | null;
  /** How often the source refreshes it ("12 hours"), from its header. */
  refresh: string | null;
  lineCount: number;
  entryCount: number;
  falsePositiveRate: number;
  /** The rate of one lookup that gives `falsePositiveRate` per URL at the list's depths (UrlBlocklist.lookupFalsePositiveRate). */
  lookupFalsePositiveRate: number;
  preloaded: BlocklistFilterType;
  filters: Partial<Record<BlocklistFilterType, { file: string; bytes: number }>>;
  /**
   * The preloaded filter's exact companion split by hash prefix (the CLI's
   * `<output>.confirm.index` and `<output>.confirm.parts/NNNN`): the index fetched with the
   * filter, one part on a filter's "maybe". `parts` is the folder, ending in '/';
   * `bytes` the parts' total, `largestPart` the most one maybe fetches. `offlineCopy` is the
   * parts back to back in one file, `partBytes` each part's length in it: what the service
   * worker keeps once a maybe was confirmed (offline.ts).
   */
  confirmation: {
    index: string;
    indexBytes: number;
    parts: string;
    partCount: number;
    bytes: number;
    largestPart: number;
    offlineCopy: string;
    partBytes: number[];
  } | null;
  examples: Example[];
}

export function readManifest(): Manifest {
  const element = document.getElementById('manifest');
  if (element === null) throw new Error('index.html has no manifest: build the page with web-demo/build.mjs');
  return JSON.parse(element.textContent ?? '') as Manifest;
}

/** How long one file may take, body included: a stalled request becomes an error a Retry button can answer. */
export const FETCH_TIMEOUT_MS = 10_000;

/**
 * Fetches a file beside the page (same origin only) and fails with its URL and status,
 * or after `timeoutMs` without the whole body (never "Loading…" forever).
 */
export async function fetchBytes(path: string, timeoutMs = FETCH_TIMEOUT_MS): Promise<Uint8Array> {
  const signal = AbortSignal.timeout(timeoutMs);
  try {
    const response = await fetch(new URL(path, document.baseURI), { signal });
    if (!response.ok) throw new Error(`could not load ${path}: HTTP ${response.status}`);
    return new Uint8Array(await response.arrayBuffer());
  } catch (error) {
    if (signal.aborted) throw new Error(`could not load ${path}: no complete answer in ${timeoutMs / 1000} s`);
    if (error instanceof TypeError) throw new Error(`could not load ${path}: ${error.message} (offline, or blocked)`);
    throw error;
  }
}

/** The text of a file beside the page, with the same timeout and errors as fetchBytes. */
export async function fetchText(path: string): Promise<string> {
  return new TextDecoder().decode(await fetchBytes(path));
}

export interface ListAge {
  /** "25 Oct 2025" (UTC), or null when the list had no date. */
  date: string | null;
  /** "3 hours old", "29 days old", or null. */
  age: string | null;
  /** True when the copy is older than the source's own refresh interval. */
  stale: boolean;
}

const HOUR = 3_600_000;
// en-GB's short months, as Intl writes them ("Sept"): the page formats its list's date by
// hand, since the first Intl formatter a page makes costs 0.1–0.8 s on a phone profile
// (loading the locale data) and the first verdict shows the date.
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sept', 'Oct', 'Nov', 'Dec'] as const;

/** A time as "25 Oct 2025" (UTC), as Intl's en-GB day, short month and year write it. */
export function formatUtcDay(time: number): string {
  const day = new Date(time);
  const year = day.getUTCFullYear();
  // Years Intl writes differently (before 1000, BC) go to Intl; a list's date is never one.
  if (year < 1000 || year > 9999) return new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' }).format(time);
  return `${day.getUTCDate()} ${MONTHS[day.getUTCMonth()]} ${year}`;
}

/** The copy's date and age at `now`; stale when older than the list's refresh interval. */
export function listAge(manifest: Manifest, now = Date.now()): ListAge {
  if (manifest.updated === null) return { date: null, age: null, stale: true };
  const updated = Date.parse(manifest.updated);
  if (!Number.isFinite(updated)) return { date: null, age: null, stale: true };
  const date = formatUtcDay(updated);
  const hours = Math.max(0, (now - updated) / HOUR);
  const age = hours < 48 ? `${Math.round(hours)} hour${Math.round(hours) === 1 ? '' : 's'} old` : `${Math.floor(hours / 24)} days old`;
  const refreshHours = parseRefreshHours(manifest.refresh);
  return { date, age, stale: refreshHours === null ? true : hours > refreshHours };
}

function parseRefreshHours(refresh: string | null): number | null {
  const match = refresh === null ? null : /^(\d+(?:\.\d+)?)\s*(hour|day)s?/i.exec(refresh);
  if (match === null) return null;
  return Number(match[1]) * (match[2]!.toLowerCase() === 'day' ? 24 : 1);
}
