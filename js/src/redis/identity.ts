import { FilterError } from '../index.js';
import type { RedisArgument } from './clients.js';
import { runBounded } from './commands.js';
import { readFields, tagText } from './layout.js';
import { ALLOCATE_SCRIPT, CREATE_SCRIPT, DESTROY_SCRIPT, GUARD_SCRIPT, PERSIST_SCRIPT, type Script } from './scripts.js';

// How a Redis-backed filter knows its own filter: the parameters hash under
// the filter's key names it by a random id, every script checks that id
// (lua/parts/identity-guard.lua), create never makes a new filter over the
// remains of an old one, a failed create leaves no key, and destroy removes
// every key. Losing the hash alone (DEL, eviction) must not let a handle or a
// new create answer false for a key whose add resolved.

/** Sends one command or script (the filter's own #command: deadline, NOSCRIPT, errors). */
export type Send = (args: RedisArgument[], what: string, script?: Script) => Promise<unknown>;

/**
 * Whether the parameters hash `key` is in the same cluster slot as the
 * filter's other keys, so that one script may touch both. The shards' hash
 * tag is the key itself ('single' slots, a key without braces: `{key}:…`
 * hashes as `key` does); 'spread' slots and keys holding braces put them
 * elsewhere, and the handle checks the hash with a second command instead.
 */
export function hashSharesSlot(key: string, slots: 'single' | 'spread'): boolean {
  return slots === 'single' && !/[{}]/.test(key);
}

/**
 * The check for layouts whose scripts cannot see the hash: GUARD_SCRIPT,
 * sent after the data script resolved. After, not before: a key whose add
 * resolved was added while the hash named this filter at a later moment, so
 * a create that came after that moment found the hash (and opened this
 * filter) or found the shards without it (and refused); and a `has` that
 * resolved read the shards of the filter the hash still named afterwards.
 */
export function checkIdentity(send: Send, hash: string, id: string): Promise<unknown> {
  return send(['EVALSHA', GUARD_SCRIPT.sha, '1', hash, id], 'the filter check', GUARD_SCRIPT);
}

/** Milliseconds a create's keys live before its commit makes them permanent. */
const PENDING_MS = 300_000;
/** Keys allocated (or removed) at once by create. */
const ALLOCATIONS_IN_FLIGHT = 4;
/**
 * Keys SCAN looks at per call. Redis spends ~1 µs a key matching them, so a
 * first create over 1M other keys takes ~1.1-1.4 s however they are cut
 * (measured with 1,000 and 10,000 a call); 1,000 keeps each call, during
 * which Redis serves no one else, near 1 ms.
 */
const SCAN_COUNT = 1000;
/** Keys named in a "shards remain" message (the count says how many more). */
const NAMED_ORPHANS = 5;

/** A glob pattern matching `text` literally (SCAN's MATCH). */
function globLiteral(text: string): string {
  return text.replace(/[*?[\]\\]/g, (c) => `\\${c}`);
}

function regexLiteral(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, (c) => `\\${c}`);
}

/**
 * The keys this package would have made for a filter under `key` (any id,
 * either slot layout, either class: shards, counters, staging keys, the
 * write counters' mirrors, the record of generations and generations), but for a shard or record still
 * carrying an expiry: another process's create that has not committed yet
 * (ALLOCATE_SCRIPT). SCAN over the whole keyspace: run only when the key
 * holds no filter, that is, on a filter's first create. On a cluster it sees
 * the node the client sends it to.
 */
async function findFilterKeys(send: Send, key: string): Promise<string[]> {
  const tag = tagText(key);
  const pattern = `{${globLiteral(tag)}[:}]*`;
  const t = regexLiteral(tag);
  const ours = new RegExp(
    `^(?:\\{${t}\\}:[0-9a-f]{1,64}:(?:\\d+(?::count|:loading)?|written|writes|g\\d+:\\d+)|\\{${t}:[0-9a-f]{1,64}:\\d+\\}(?::count|:loading|:writes)?)$`,
  );
  // What ALLOCATE_SCRIPT makes (with an expiry until the commit): shards and the record of generations.
  const pendable = new RegExp(`^(?:\\{${t}\\}:[0-9a-f]{1,64}:(?:\\d+|written)|\\{${t}:[0-9a-f]{1,64}:\\d+\\})$`);
  const found: string[] = [];
  let cursor = '0';
  do {
    const reply = await send(['SCAN', cursor, 'MATCH', pattern, 'COUNT', String(SCAN_COUNT)], 'create (looking for what is left of a filter)');
    const [next, names] = Array.isArray(reply) ? reply : [];
    cursor = String(next ?? '0');
    for (const name of Array.isArray(names) ? names.map(String) : []) {
      if (!ours.test(name)) continue;
      if (pendable.test(name) && Number(await send(['PTTL', name], 'create')) > 0) continue;
      found.push(name);
    }
  } while (cursor !== '0');
  return found.sort();
}

/** The keys a new filter is made of: one group per cluster slot, each key with what it is ('z' or a byte length). */
interface NewFilterKeys {
  hash: string;
  /** The hash's fields and values, as HSET takes them. */
  fields: string[];
  /** Whether every group is in the hash's slot (then there is one group, made permanent by the commit itself). */
  sameSlot: boolean;
  groups: Array<Array<{ name: string; what: string }>>;
}

/**
 * Creates the filter's keys, or finds the filter already there. Returns null
 * when this call created it, else the HGETALL reply of the hash that was
 * there (the caller compares parameters).
 *
 * 1. A key of another type: CORRUPT, nothing written.
 * 2. No hash, but keys of a filter under this name: CORRUPT ("parameters
 *    lost, shards remain"), since a new filter would answer false for keys
 *    already added. Nothing written.
 * 3. Every key is made with an expiry (one call each: ALLOCATE_SCRIPT), then
 *    the hash is committed. Keys in the hash's slot lose their expiry in the
 *    commit itself; keys in other slots just after it. A create that fails
 *    or loses the race to another create removes what it made; one that dies
 *    leaves keys that expire within PENDING_MS.
 */
export async function createOrFind(send: Send, keys: NewFilterKeys): Promise<unknown> {
  const { hash } = keys;
  const present = await existingFilter(send, hash);
  if (present !== null) return present;
  const remains = await findFilterKeys(send, hash);
  if (remains.length > 0) {
    // A create that committed since the first look made these: open it.
    const now = await existingFilter(send, hash);
    if (now !== null) return now;
    const named = remains.slice(0, NAMED_ORPHANS).map((name) => `'${name}'`).join(', ');
    const more = remains.length > NAMED_ORPHANS ? ` and ${remains.length - NAMED_ORPHANS} more` : '';
    throw new FilterError(
      'CORRUPT',
      `Redis key '${hash}': parameters lost, shards remain (${named}${more}): the filter's parameters hash was deleted, ` +
        'evicted or flushed while its other keys survived; create refuses to make a new, empty filter over them, which ' +
        'would answer false for keys already added. Restore the hash, or remove those keys (UNLINK) to start over',
    );
  }
  const made: string[] = [];
  const everyKey = keys.groups.flat();
  try {
    await runBounded(
      everyKey.map(({ name, what }) => async () => {
        await send(['EVALSHA', ALLOCATE_SCRIPT.sha, '1', name, String(PENDING_MS), what], 'create', ALLOCATE_SCRIPT);
        made.push(name);
      }),
      ALLOCATIONS_IN_FLIGHT,
    );
    const inCommit = keys.sameSlot ? everyKey.map((k) => k.name) : [];
    const reply = await send(
      ['EVALSHA', CREATE_SCRIPT.sha, String(1 + inCommit.length), hash, ...inCommit, ...keys.fields],
      'create',
      CREATE_SCRIPT,
    );
    if (!isEmptyReply(reply)) {
      await removeAll(send, made);
      return reply;
    }
  } catch (error) {
    await removeAll(send, made).catch(() => {}); // what is left expires within PENDING_MS
    throw error;
  }
  if (!keys.sameSlot) {
    for (const group of keys.groups) {
      await send(['EVALSHA', PERSIST_SCRIPT.sha, String(group.length), ...group.map((k) => k.name)], 'create', PERSIST_SCRIPT);
    }
  }
  return null;
}

/** The hash's fields when `hash` is a hash, null when the key is free; CORRUPT for another type. */
async function existingFilter(send: Send, hash: string): Promise<unknown> {
  const type = String(await send(['TYPE', hash], 'create'));
  if (type === 'none') return null;
  if (type !== 'hash') {
    throw new FilterError('CORRUPT', `Redis key '${hash}' holds a ${type}, not a filter of this package: nothing was created (use another key)`);
  }
  const reply = await send(['HGETALL', hash], 'create');
  return readFields(reply).size === 0 ? null : reply;
}

function isEmptyReply(reply: unknown): boolean {
  return (Array.isArray(reply) && reply.length === 0) || (typeof reply === 'object' && reply !== null && Object.keys(reply).length === 0);
}

/** UNLINK, one key a command (the keys may be in different cluster slots). */
async function removeAll(send: Send, names: string[]): Promise<void> {
  await runBounded(names.map((name) => () => send(['UNLINK', name], 'create')), ALLOCATIONS_IN_FLIGHT);
}

/**
 * Removes a filter: the hash (only if it names `id`: a stale handle never
 * removes a newer filter) with every key in its slot in one script, then
 * each other slot's keys in one command each. `slotGroups[0]` holds the keys
 * of the hash's slot when `sameSlot`. `written`: the 1-based index in its
 * group of an expiring filter's record of generations, whose recorded
 * generations (named `prefix` g member) go too.
 * @throws FilterError `CORRUPT` when the hash names another filter (nothing removed).
 */
export async function destroyFilter(
  send: Send,
  hash: string,
  id: string,
  sameSlot: boolean,
  slotGroups: string[][],
  written: { group: number; index: number; prefix: string } | null,
): Promise<void> {
  // The record's index among a call's KEYS (shifted by one when the hash comes first), and the generations' prefix.
  const writtenArgs = (group: number, shift: number) =>
    written !== null && written.group === group ? [String(written.index + shift), written.prefix] : ['0', ''];
  const first = sameSlot ? (slotGroups[0] ?? []) : [];
  await send(
    ['EVALSHA', DESTROY_SCRIPT.sha, String(1 + first.length), hash, ...first, id, ...(sameSlot ? writtenArgs(0, 1) : ['0', ''])],
    'destroy',
    DESTROY_SCRIPT,
  );
  for (let g = sameSlot ? 1 : 0; g < slotGroups.length; g++) {
    const names = slotGroups[g] as string[];
    if (names.length === 0) continue;
    await send(['EVALSHA', DESTROY_SCRIPT.sha, String(names.length), ...names, '', ...writtenArgs(g, 0)], 'destroy', DESTROY_SCRIPT);
  }
}
