import { createHash } from 'node:crypto';
import ADD from './lua/add.lua';
import ALLOCATE from './lua/allocate.lua';
import COMMIT_LOAD from './lua/commit-load.lua';
import CREATE from './lua/create.lua';
import DESTROY from './lua/destroy.lua';
import EXPIRING_ADD from './lua/expiring-add.lua';
import EXPIRING_HAS from './lua/expiring-has.lua';
import GUARD from './lua/guard.lua';
import HAS from './lua/has.lua';
import PERSIST from './lua/persist.lua';
import VERIFY from './lua/verify.lua';
import BLOCK_HELPERS from './lua/parts/block-helpers.lua';
import EXPIRING_GENERATIONS from './lua/parts/expiring-generations.lua';
import IDENTITY_GUARD from './lua/parts/identity-guard.lua';
import RANGE_AT from './lua/parts/range-at.lua';
import WRITE_COUNTERS from './lua/parts/write-counters.lua';

/**
 * The Lua scripts that read and write a filter's table in Redis, and how they
 * are sent (EVALSHA, falling back to EVAL when the server's script cache was
 * flushed or restarted: NOSCRIPT).
 *
 * Each script is a file of lua/, whose header comment is its contract: KEYS,
 * ARGV, what it returns, why it is atomic and what it refuses. The files are
 * bundled as text (esbuild's text loader: .ci/build-package.mjs), so the
 * package carries them and needs no source tree. What several scripts share is
 * a part (lua/parts/): a script's header names its parts on its `-- Parts:`
 * line, and the text sent is those parts, in that order, then the script's
 * file (one Lua chunk: a part's locals are the script's).
 *
 * A call's keys come planned by cbw_redis_plan (bindings/redis_positions.cpp):
 * sorted by block, grouped by shard, and each shard's blocks merged into
 * ranges of bytes to read, blocks at most a few apart sharing one range.
 * Per shard the scripts get its ranges (lua/parts/range-at.lua) and, to add,
 * its records: per key, in range order, its block's byte offset in its range
 * (u32, little-endian), then for each of the block's 8 words the bit (0..63)
 * the key sets in it (lua/parts/block-helpers.lua: where that bit is).
 *
 * Measured on Redis 7.0, a script spends ~1-2 µs on one redis.call, ~2 ns
 * a byte on what GETRANGE returns, and ~0.25 µs on each string.format:
 * hence one GETRANGE per range, offsets sent as text, and replies of one
 * byte per key (returning the blocks instead cost more in Redis than the
 * bit tests it saves).
 *
 * Each data script checks, before reading or writing anything, that the
 * filter's parameters hash still names this handle's filter (identity-guard)
 * and that every shard it touches exists with its full length and as many
 * writes as its mirror says (write-counters): a shard that was deleted,
 * flushed, evicted or lost in a restart would otherwise read as zeros, one
 * put back to an older copy would lack every add since, and adds into shards
 * whose parameters are gone would go where no new handle reads; all are false
 * negatives presented as certain answers. A script runs atomically, so a
 * call's keys are all answered (or added) against one state of the table.
 *
 * The headers are terse because the package ships them (the bundle holds each
 * file as it is; the package must unpack to at most 3 MB); the reasons behind
 * two parts, at length:
 *
 * write-counters. A shard string is its table (tableBytes) and then 8 bytes
 * counting the script calls that changed it (little-endian, so a zeroed new
 * shard says 0); the mirror hash holds the same count under the shard's name
 * (no field: 0). Both change in the same script, so they differ only when one
 * was put back to another copy: a shard older than its mirror (RESTORE, COPY …
 * REPLACE) lacks adds that resolved, and is refused, as is a mirror older than
 * its shard: which one is right cannot be told from inside. A shard of exactly
 * tableBytes was written by a release before the counters: 0 writes, and its
 * first counted write appends the counter (a 512 MiB one cannot grow and stays
 * uncounted). Redis's doubles hold counts exactly to 2^53. The cost: one
 * GETRANGE of 8 bytes and one HGET per shard a call touches; an add that
 * changed a shard adds a SETRANGE of 8 bytes and an HSET.
 *
 * expiring-generations. Time is Redis's own (TIME, read inside the script),
 * so every process agrees on the current generation without talking to the
 * others, and a rotation is nothing but the generation number changing:
 * generation g spans Redis times [g G, (g + 1) G) with G = window / (K - 1)
 * ms. `has` looks in generations newest - K + 1 .. newest, so a key added at
 * time t is found until at least t + window (when newest - K + 1 is still its
 * generation), and at most t + window + G. Generation g's shards expire
 * (PEXPIREAT) when it stops being looked at, (g + K) G: Redis drops them
 * itself. A shard that does not exist is empty (never written, or expired);
 * to tell that apart from a shard lost (evicted, deleted, a restart without
 * persistence), each shard made is recorded in the sorted set of generations
 * (score g, member "g:j"; made with the filter, with a sentinel member so that
 * it exists while the filter does): a shard recorded for a generation still
 * looked at, but missing, is an error, as is the set itself missing. The
 * mirror's fields go with the records of generations no longer looked at.
 */

export interface Script {
  readonly name: string;
  /** The text sent to Redis: the script's parts, then its file. */
  readonly source: string;
  /** SHA-1 of the source, as EVALSHA names it. */
  readonly sha: string;
}

/** Every part, by the name a script's `-- Parts:` line gives it (its file's name in lua/parts/). */
const PARTS: ReadonlyMap<string, string> = new Map([
  ['identity-guard', IDENTITY_GUARD],
  ['write-counters', WRITE_COUNTERS],
  ['block-helpers', BLOCK_HELPERS],
  ['range-at', RANGE_AT],
  ['expiring-generations', EXPIRING_GENERATIONS],
]);

/** The parts a script's header names (`-- Parts: a b c`), in order; none without that line. */
function partsOf(text: string): string[] {
  const header = /^(?:--.*\n)*/.exec(text)?.[0] ?? '';
  const line = /^-- Parts: (.*)$/m.exec(header);
  return line === null ? [] : (line[1] as string).trim().split(/\s+/);
}

/**
 * The script `name` of file text `text`: its parts, then the text, sent as
 * one chunk, and the SHA-1 of exactly that.
 * @throws Error for a part no file defines (a bug: it fails when the module loads).
 */
function script(name: string, text: string): Script {
  const parts = partsOf(text).map((part) => {
    const partText = PARTS.get(part);
    if (partText === undefined) throw new Error(`the Lua script '${name}' names an unknown part '${part}'`);
    return partText;
  });
  const source = [...parts, text].join('');
  return { name, source, sha: createHash('sha1').update(source).digest('hex') };
}

export const HAS_SCRIPT = script('has', HAS);
export const ADD_SCRIPT = script('add', ADD);
export const CREATE_SCRIPT = script('create', CREATE);
export const ALLOCATE_SCRIPT = script('allocate', ALLOCATE);
export const PERSIST_SCRIPT = script('persist', PERSIST);
export const GUARD_SCRIPT = script('guard', GUARD);
export const DESTROY_SCRIPT = script('destroy', DESTROY);
export const COMMIT_LOAD_SCRIPT = script('commit-load', COMMIT_LOAD);
export const VERIFY_SCRIPT = script('verify', VERIFY);
export const EXPIRING_HAS_SCRIPT = script('expiring-has', EXPIRING_HAS);
export const EXPIRING_ADD_SCRIPT = script('expiring-add', EXPIRING_ADD);
