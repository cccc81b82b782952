import { FilterError, init, internalRuntime as getRuntime } from '../index.js';
import { describeValue, detachedKey, invalidKey, isDetached, type Key, keyArray } from '../keys/keys.js';
import { requireInteger } from '../options.js';
import { adaptClient, errorText, isReplyError, type RedisArgument, type RedisCommandRunner, withDeadline } from './clients.js';
import { checkEviction } from './eviction.js';
import { readFields } from './layout.js';
import { CallPlanner, type RedisCore } from './positions.js';
import type { Script } from './scripts.js';

// What every Redis-backed filter shares: sending commands and scripts with a
// deadline, turning failures into FilterErrors, checking keys and options,
// and the one call planner.

const DEFAULT_TIMEOUT_MS = 10_000;
/**
 * Keys per script call. A script blocks Redis while it runs, so larger
 * batches are split into calls of this many keys, two in flight at a time
 * (pipelined: the next is planned while Redis runs one); each call is atomic
 * on its own.
 */
export const KEYS_PER_SCRIPT = 4096;
/** Script calls of one batch in flight at once (the next is planned while Redis runs one). */
export const CALLS_IN_FLIGHT = 2;

/** Sends one command; a script by EVALSHA (args[1] its SHA), resent as EVAL after NOSCRIPT. */
export async function sendCommand(
  redis: RedisCommandRunner,
  args: RedisArgument[],
  timeoutMs: number,
  what: string,
  script?: Script,
  bytes = false,
): Promise<unknown> {
  try {
    return await runCommand(redis, args, timeoutMs, what, bytes);
  } catch (error) {
    if (script === undefined || !(error instanceof FilterError) || !/NOSCRIPT/.test(errorText(error.cause))) throw error;
    // The script cache was flushed (SCRIPT FLUSH, a restart, a failover):
    // EVAL sends the source, and caches it again for the next EVALSHA.
    return runCommand(redis, ['EVAL', script.source, ...args.slice(2)], timeoutMs, what, bytes);
  }
}

let sharedPlanner: CallPlanner | null = null;

/** One planner for every filter: planning is synchronous, so one scratch region serves all. */
export function plannerFor(core: RedisCore): CallPlanner {
  sharedPlanner ??= new CallPlanner(core, getRuntime().arena);
  return sharedPlanner;
}

/**
 * The keys of a batch as an array (any iterable, as the in-memory filters'
 * batches take), each checked.
 * @throws FilterError INVALID_ARGUMENT for anything else, naming the first bad key's index.
 */
export function checkedKeys(given: unknown): readonly Key[] {
  const keys = keyArray(given);
  for (let i = 0; i < keys.length; i++) {
    const key: unknown = keys[i];
    if (typeof key === 'string') continue;
    if (!(key instanceof Uint8Array)) throw invalidKey(key, i);
    if (key.length === 0 && isDetached(key)) throw detachedKey(i);
  }
  return keys;
}

export async function loadCore(): Promise<RedisCore> {
  await init();
  return getRuntime().module as RedisCore;
}

/** One command with a deadline; every failure becomes a FilterError. */
async function runCommand(
  redis: RedisCommandRunner,
  args: readonly RedisArgument[],
  timeoutMs: number,
  what: string,
  bytes = false,
): Promise<unknown> {
  try {
    const sent = bytes ? redis.sendForBytes(args) : redis.send(args);
    return await withDeadline(Promise.resolve(sent), timeoutMs, what);
  } catch (error) {
    if (error instanceof FilterError) throw error;
    const text = errorText(error);
    const known = scriptRefusal(text, error);
    if (known !== null) throw known;
    if (isReplyError(error) && /^WRONGTYPE/.test(text)) {
      throw new FilterError('CORRUPT', `a key of this filter holds another Redis type (${what}): ${text}`, { cause: error });
    }
    throw new FilterError('UNAVAILABLE', `Redis failed during ${what}: ${text}`, { cause: error });
  }
}

/**
 * The FilterError for a script's own refusal (the CBW_ codes the Lua scripts of lua/ return,
 * each followed by the key it is about, last, since a key may hold spaces),
 * or null for any other error.
 */
function scriptRefusal(text: string, cause: unknown): FilterError | null {
  const match = /CBW_([A-Z_]+) ([\s\S]*)$/.exec(text);
  if (match === null) return null;
  const [, code, rest = ''] = match;
  const options = { cause };
  switch (code) {
    case 'MISSING_SHARD':
      return missingShard(rest, null, cause);
    case 'STALE_SHARD': {
      const [count = '', mirrored = '', ...shard] = rest.split(' ');
      const older = Number(count) < Number(mirrored);
      return new FilterError(
        'CORRUPT',
        `the filter's shard '${shard.join(' ')}' has ${count} write(s) where its mirror records ${mirrored}: ` +
          (older
            ? 'the shard was put back to an older copy (RESTORE, COPY … REPLACE, a replica promoted from behind) and lacks adds ' +
              'that resolved, so no answer is given'
            : 'the mirror of its write counts was put back to an older copy or lost, so which copy is current cannot be told; ' +
              'no answer is given') +
          ' (https://github.com/cuckoo-bloom-wasm/cuckoo-bloom-wasm/blob/main/docs/REDIS.md: "What Redis can lose")',
        options,
      );
    }
    case 'NO_PARAMETERS':
      return lostParameters(rest, options);
    case 'OTHER_FILTER': {
      const [stored = '', ...key] = rest.split(' ');
      return new FilterError(
        'CORRUPT',
        `Redis key '${key.join(' ')}' now holds another filter (id ${stored}): this handle's filter was destroyed ` +
          'and the key created again, so this handle gives no answer; open the key again',
        options,
      );
    }
    case 'NOT_A_FILTER': {
      const [type = '', ...key] = rest.split(' ');
      return new FilterError(
        'CORRUPT',
        `Redis key '${key.join(' ')}' holds a ${type}, not a filter of this package: nothing was created (use another key)`,
        options,
      );
    }
    case 'KEY_EXISTS':
      return new FilterError('CORRUPT', `a key of the new filter, '${rest}', already exists in Redis: nothing was created`, options);
    default:
      return null;
  }
}

/** CORRUPT: the parameters hash `key` of a handle's filter is gone. */
function lostParameters(key: string, options?: { cause?: unknown }): FilterError {
  return new FilterError(
    'CORRUPT',
    `the filter's parameters hash '${key}' is missing in Redis (deleted, evicted, flushed, or lost in a restart ` +
      'without persistence): no answer is given, since what this handle adds no new handle would read',
    options,
  );
}

export function missingShard(shard: string, key: string | null, cause?: unknown): FilterError {
  return new FilterError(
    'CORRUPT',
    `the filter's shard '${shard}' is missing or truncated in Redis (deleted, flushed, evicted, or lost in a restart ` +
      `without persistence)${key === null ? '' : ` for '${key}'`}: no answer is given, since it would read as zeros`,
    cause === undefined ? undefined : { cause },
  );
}

/** Runs the tasks with at most `limit` in flight; the first failure rejects (after the rest settle). */
export async function runBounded(tasks: Array<() => Promise<unknown>>, limit: number): Promise<void> {
  let next = 0;
  let failure: unknown = null;
  const worker = async () => {
    while (next < tasks.length && failure === null) {
      const task = tasks[next++] as () => Promise<unknown>;
      try {
        await task();
      } catch (error) {
        failure ??= error;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, tasks.length) }, worker));
  if (failure !== null) throw failure;
}

export function toBuffer(bytes: Uint8Array): Uint8Array {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

export function checkKey(key: unknown): asserts key is string {
  if (typeof key !== 'string' || key.length === 0) {
    throw new FilterError('INVALID_ARGUMENT', `a Redis key must be a non-empty string, got ${describeValue(key)}`);
  }
}

export function checkTimeout(value: unknown, where: string): number {
  if (value === undefined) return DEFAULT_TIMEOUT_MS;
  requireInteger(value, 'timeoutMs', `RedisBloomFilter.${where}`, 0, 2 ** 31 - 1);
  return value;
}


/**
 * What open() reads before it makes a filter: the adapted client, the
 * timeout, the core and the parameters hash stored under `key`, once the
 * server was found not to evict the filter's keys (eviction.ts).
 * @throws FilterError `INVALID_ARGUMENT` for a bad key or timeout, or when
 *   `key` holds no filter (`className`.create() makes one); `UNSUPPORTED` when
 *   Redis may evict its keys (without `allowEviction`); `UNAVAILABLE`.
 */
export async function readStoredParameters(
  client: unknown,
  key: unknown,
  timeout: unknown,
  className: string,
  eviction: { expiring: boolean; allowEviction: boolean },
) {
  const redis = adaptClient(client);
  checkKey(key);
  const timeoutMs = checkTimeout(timeout, 'open');
  await checkEviction(redis, key, { ...eviction, where: `${className}.open`, timeoutMs });
  const core = await loadCore();
  const reply = await runCommand(redis, ['HGETALL', key], timeoutMs, `HGETALL ${key}`);
  if (readFields(reply).size === 0) {
    throw new FilterError('INVALID_ARGUMENT', `Redis key '${key}' holds no filter (create it with ${className}.create())`);
  }
  return { redis, timeoutMs, core, reply };
}
