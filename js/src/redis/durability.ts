import { FilterError } from '../index.js';
import { describeValue } from '../keys/keys.js';
import { requireInteger } from '../options.js';
import { errorText, type RedisArgument, type RedisCommandRunner, withDeadline } from './clients.js';

// The `durability` option: an add resolves only once that many replicas hold it.
//
// Redis replicates asynchronously: a master answers a script before its
// replicas have the write, so a failover right after an acknowledged add can
// promote a replica without it, and `has` then answers false for a key whose
// add resolved. `WAIT replicas timeoutMs`, sent on the connection that ran the
// add (WAIT counts the replicas that acknowledged that connection's latest
// write), closes that window: the add resolves only when `replicas` replicas
// have it, and rejects UNAVAILABLE otherwise (its bits may be set: adds are
// idempotent, so a retry is safe). WAIT is not a consensus protocol: a replica
// that acknowledged can still lose the write if it dies too before it is
// promoted (https://github.com/cuckoo-bloom-wasm/cuckoo-bloom-wasm/blob/main/docs/REDIS-CLUSTER.md).

/** `durability` as create() and open() take it. */
export interface DurabilityOptions {
  /** Replicas that must hold an add before it resolves: an integer ≥ 1. */
  replicas: number;
  /** Milliseconds `WAIT` waits for them (an integer ≥ 1); then the add rejects `UNAVAILABLE`. */
  timeoutMs: number;
}

/** A runner whose adds wait for replicas (what `withDurability` returns). */
interface DurableRunner extends RedisCommandRunner {
  readonly durability: DurabilityOptions;
}

const MAX_WAIT_MS = 2 ** 31 - 1;

/**
 * The option checked: null when absent (no WAIT, nothing changes).
 * @throws FilterError `INVALID_ARGUMENT` naming `where` and what is wrong.
 */
export function checkDurability(value: unknown, where: string): DurabilityOptions | null {
  if (value === undefined) return null;
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new FilterError('INVALID_ARGUMENT', `${where}: durability must be an object such as { replicas: 1, timeoutMs: 1000 }, got ${describeValue(value)}`);
  }
  for (const name of Object.keys(value)) {
    if (name !== 'replicas' && name !== 'timeoutMs') {
      throw new FilterError('INVALID_ARGUMENT', `${where}: unknown durability option '${name}' (known: replicas, timeoutMs)`);
    }
  }
  const { replicas, timeoutMs } = value as Record<string, unknown>;
  requireInteger(replicas, 'durability.replicas', where, 1, 1_000_000);
  requireInteger(timeoutMs, 'durability.timeoutMs', where, 1, MAX_WAIT_MS);
  return { replicas, timeoutMs };
}

/** `redis` unchanged without durability; else a runner over it that carries the option for `awaitReplicas`. */
export function withDurability(redis: RedisCommandRunner, durability: DurabilityOptions | null): RedisCommandRunner {
  if (durability === null) return redis;
  const durable: DurableRunner = {
    send: (args) => redis.send(args),
    sendForBytes: (args) => redis.sendForBytes(args),
    durability,
  };
  const toMaster = redis.sendToMasterOf;
  if (toMaster !== undefined) durable.sendToMasterOf = (key, args) => toMaster.call(redis, key, args);
  return durable;
}

/**
 * Call once an add's script call resolved, with the first key it wrote: on a
 * durable runner, `WAIT` on the master serving that key's slot (a cluster) or
 * on the one connection; nothing otherwise.
 * @param deadlineMs the handle's timeoutMs (0: none); WAIT gets that plus its own timeout.
 * @throws FilterError `UNAVAILABLE` when fewer replicas acknowledged, or WAIT failed.
 */
export async function awaitReplicas(redis: RedisCommandRunner, key: string, deadlineMs: number): Promise<void> {
  const durability = (redis as Partial<DurableRunner>).durability;
  if (durability === undefined) return;
  const { replicas, timeoutMs } = durability;
  const args: RedisArgument[] = ['WAIT', String(replicas), String(timeoutMs)];
  let reply: unknown;
  try {
    const sent = redis.sendToMasterOf !== undefined ? redis.sendToMasterOf(key, args) : redis.send(args);
    reply = await withDeadline(Promise.resolve(sent), deadlineMs === 0 ? 0 : deadlineMs + timeoutMs, 'WAIT');
  } catch (error) {
    throw new FilterError(
      'UNAVAILABLE',
      `durability: WAIT for ${replicas} replica(s) of the master serving '${key}' failed (${errorText(error)}); ` +
        'the add may or may not be kept: retry it (adds are idempotent)',
      { cause: error },
    );
  }
  const acknowledged = Number(reply);
  if (!(acknowledged >= replicas)) {
    throw new FilterError(
      'UNAVAILABLE',
      `durability: ${Number.isFinite(acknowledged) ? acknowledged : describeValue(reply)} of the ${replicas} replica(s) asked for ` +
        `acknowledged the write within ${timeoutMs} ms (master serving '${key}'); what it wrote may be there: retry it (creates and adds are idempotent)`,
    );
  }
}
