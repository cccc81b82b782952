// What build.mjs wrote about the preloaded list (data/manifest.json), and loading it.
import type { BlocklistFilterType } from '../../js/src/index.ts';

export interface Example {
  kind: 'listed-host' | 'listed-url' | 'ordinary';
  label: string;
  url: string;
  /** The list entry (expression) the URL matches, or null for an ordinary site. */
  entry: string | null;
}

export interface Manifest {
  title: string;
  source: string;
  homepage: string;
  upstream: string;
  license: string;
  licenseUrl: string;
  updated: string | null;
  lineCount: number;
  entryCount: number;
  falsePositiveRate: number;
  filters: Partial<Record<BlocklistFilterType, { file: string; bytes: number }>>;
  examples: Example[];
  builtWith: string;
}

/** Fetches a file beside the page (same origin only) and fails with its URL and status. */
export async function fetchBytes(path: string): Promise<Uint8Array> {
  const response = await fetch(new URL(path, document.baseURI));
  if (!response.ok) throw new Error(`could not load ${path}: HTTP ${response.status}`);
  return new Uint8Array(await response.arrayBuffer());
}

export async function loadManifest(): Promise<Manifest> {
  const response = await fetch(new URL('data/manifest.json', document.baseURI));
  if (!response.ok) throw new Error(`could not load data/manifest.json: HTTP ${response.status}`);
  return (await response.json()) as Manifest;
}
