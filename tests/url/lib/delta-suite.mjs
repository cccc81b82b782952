// What both delta suites (updates-delta and updates-delta-chain) start from:
// the built package's full and reader entries, initialised; every type a
// blocklist takes; and deltaClients' build/client/differing over the two entries.
import * as full from '../../../dist/index.js';
import { deltaClients } from './delta-clients.mjs';
import { blocklistTypes } from './verdict-oracle.mjs';

export { full };
export const reader = await import(new URL('../../../dist/reader.import.cjs', import.meta.url).href);

await full.init();
await reader.init();

/** Every type a blocklist takes: each suite walks them all. */
export const TYPES = blocklistTypes(full);

export const { build, client, differing } = deltaClients(full.UrlBlocklist, reader.UrlBlocklistReader);
