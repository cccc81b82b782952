import { FilterError } from '../index.js';
import { describeValue } from '../keys/keys.js';

/**
 * One argument of a Redis command: text, or bytes (at run time this package
 * sends Node Buffers, which are Uint8Arrays; typed as Uint8Array so these
 * typings need no Node types).
 */
export type RedisArgument = string | Uint8Array;

/**
 * What `create` and `open` take: a connected node-redis client or cluster
 * (`createClient()`, `createCluster()`: anything with `sendCommand`), an ioredis
 * client or cluster (`new Redis()`, `new Redis.Cluster()`: `call` and
 * `callBuffer`), or a `RedisCommandRunner` of your own. Structural, so neither
 * client is a dependency, and an object with none of these methods (a typo,
 * the wrong object) is a type error.
 */
export type RedisClient =
  | RedisCommandRunner
  | {
      /** node-redis: sends one command given as its arguments (`['GET', key]`). */
      sendCommand(...args: never[]): Promise<unknown>;
    }
  | {
      /** ioredis: sends one command, bulk-string replies as strings. */
      call(...args: never[]): Promise<unknown>;
      /** ioredis: sends one command, bulk-string replies as bytes. */
      callBuffer(...args: never[]): Promise<unknown>;
    };

/**
 * The calls this package needs from a Redis client. node-redis (v4 and later)
 * and ioredis clients, and their cluster clients (node-redis `createCluster`,
 * ioredis `Redis.Cluster`), are adapted to it automatically; pass your own
 * object of this shape for anything else (a tracing wrapper, ...). A runner
 * for a cluster routes each command by its first key (for EVAL/EVALSHA, the
 * first of its KEYS: args[3]); every command this package sends names its
 * keys, and the keys of one command share one hash slot.
 */
export interface RedisCommandRunner {
  /** Sends one command; bulk-string replies as strings. Rejects with the server's error reply. */
  send(args: readonly RedisArgument[]): Promise<unknown>;
  /** Sends one command; bulk-string replies as Buffers (binary data). */
  sendForBytes(args: readonly RedisArgument[]): Promise<unknown>;
  /**
   * Optional, for cluster clients: sends a keyless command (`WAIT`) on the
   * connection to the master serving `key`'s slot, the connection that ran the
   * commands routed by that key. Without it, `send` is used: one connection.
   */
  sendToMasterOf?(key: string, args: readonly RedisArgument[]): Promise<unknown>;
}

/** A node-redis client (`createClient()` from the `redis` package, v4+). */
interface NodeRedisLike {
  sendCommand(args: RedisArgument[], options?: object): Promise<unknown>;
}
/**
 * A node-redis cluster (`createCluster()`): its sendCommand takes the routing key
 * first (before v4 and since, the same four arguments), and it hands out the
 * client of each node.
 */
interface NodeRedisClusterLike {
  sendCommand(firstKey: RedisArgument | undefined, isReadonly: boolean, args: RedisArgument[], options?: object): Promise<unknown>;
  /** v5+: the master's client for a key (a promise, or the client). */
  getNodeClientForKey?(key: string, isReadonly: boolean): unknown;
  getSlotMaster(slot: number): unknown;
  nodeClient(node: unknown): unknown;
}
/** An ioredis client or cluster (`new Redis()`, `new Redis.Cluster()`). */
interface IoRedisLike {
  call(command: string, ...args: RedisArgument[]): Promise<unknown>;
  callBuffer(command: string, ...args: RedisArgument[]): Promise<unknown>;
}
/** An ioredis cluster: `slots[slot][0]` is the master's "host:port", `nodes('master')` its connections. */
interface IoRedisClusterLike extends IoRedisLike {
  slots: string[][];
  nodes(role: 'master'): Array<IoRedisLike & { options: { host?: string; port?: number } }>;
}

/** RESP_TYPES.BLOB_STRING in node-redis (the '$' type byte): map bulk strings to Buffers. */
const NODE_REDIS_BUFFERS = { typeMapping: { 36: Buffer } };
/** node-redis v4's spelling of the same request. */
const NODE_REDIS_V4_BUFFERS = { returnBuffers: true };

function isFunction(value: unknown): value is (...args: never[]) => unknown {
  return typeof value === 'function';
}

/** Adapts a connected client; INVALID_ARGUMENT for anything that is not one. */
export function adaptClient(client: unknown): RedisCommandRunner {
  if (typeof client === 'object' && client !== null) {
    const candidate = client as Record<string, unknown>;
    if (isFunction(candidate.send) && isFunction(candidate.sendForBytes)) return client as RedisCommandRunner;
    if (isFunction(candidate.callBuffer) && isFunction(candidate.call)) {
      const io = client as IoRedisLike;
      const runner: RedisCommandRunner = {
        send: ([command, ...args]) => io.call(command as string, ...args),
        sendForBytes: ([command, ...args]) => io.callBuffer(command as string, ...args),
      };
      // ioredis's Cluster routes call() by the command's keys itself; only WAIT needs a node.
      if (isFunction(candidate.nodes) && Array.isArray(candidate.slots)) {
        runner.sendToMasterOf = (key, [command, ...args]) => ioRedisMasterOf(client as IoRedisClusterLike, key).call(command as string, ...args);
      }
      return runner;
    }
    if (isFunction(candidate.sendCommand)) {
      // v5+ takes a typeMapping; v4 (which has no withTypeMapping) takes returnBuffers.
      const bytes = isFunction(candidate.withTypeMapping) ? NODE_REDIS_BUFFERS : NODE_REDIS_V4_BUFFERS;
      if (isFunction(candidate.nodeClient) && isFunction(candidate.getSlotMaster)) {
        // A cluster: sendCommand(args) would take the array for the routing key (and fail).
        const cluster = client as NodeRedisClusterLike;
        return {
          send: (args) => retryTryAgain(() => cluster.sendCommand(routingKey(args), false, args as RedisArgument[])),
          sendForBytes: (args) => retryTryAgain(() => cluster.sendCommand(routingKey(args), false, args as RedisArgument[], bytes)),
          sendToMasterOf: async (key, args) => {
            const node = (await (isFunction(cluster.getNodeClientForKey)
              ? cluster.getNodeClientForKey(key, false)
              : cluster.nodeClient(cluster.getSlotMaster(slotOf(key))))) as NodeRedisLike;
            return node.sendCommand(args as RedisArgument[]);
          },
        };
      }
      const nodeRedis = client as NodeRedisLike;
      return {
        send: (args) => nodeRedis.sendCommand(args as RedisArgument[]),
        sendForBytes: (args) => nodeRedis.sendCommand(args as RedisArgument[], bytes),
      };
    }
  }
  throw new FilterError(
    'INVALID_ARGUMENT',
    `expected a connected node-redis or ioredis client or cluster (or an object with send and sendForBytes), got ${describeValue(client)}`,
  );
}

/** The key a cluster routes a command by: EVAL/EVALSHA's first key (args[3]), else args[1]; none for a keyless command. */
function routingKey(args: readonly RedisArgument[]): RedisArgument | undefined {
  const command = String(args[0]).toUpperCase();
  if (command === 'EVAL' || command === 'EVALSHA') return Number(args[2]) > 0 ? args[3] : undefined;
  return command === 'WAIT' ? undefined : args[1];
}

/** How long a command answered TRYAGAIN is retried (every TRYAGAIN_DELAY_MS), as ioredis does itself. */
const TRYAGAIN_FOR_MS = 2000;
const TRYAGAIN_DELAY_MS = 25;

/**
 * Runs `send`, again while Redis answers TRYAGAIN: a multi-key command (each
 * filter script) whose slot is being migrated while some of its keys have
 * moved and some have not. Nothing ran, so resending is safe; node-redis
 * follows MOVED and ASK but passes TRYAGAIN on.
 */
async function retryTryAgain(send: () => Promise<unknown>): Promise<unknown> {
  const giveUpAt = Date.now() + TRYAGAIN_FOR_MS;
  for (;;) {
    try {
      return await send();
    } catch (error) {
      if (!/^TRYAGAIN/.test(errorText(error)) || Date.now() > giveUpAt) throw error;
      await new Promise((resolve) => setTimeout(resolve, TRYAGAIN_DELAY_MS));
    }
  }
}

/** The connection to the master of `key`'s slot in an ioredis cluster's current slot map. */
function ioRedisMasterOf(cluster: IoRedisClusterLike, key: string): IoRedisLike {
  const address = cluster.slots[slotOf(key)]?.[0];
  const master = cluster.nodes('master').find((node) => `${node.options.host}:${node.options.port}` === address);
  if (master === undefined) {
    throw new FilterError('UNAVAILABLE', `the cluster client knows no master for slot ${slotOf(key)} (of '${key}')`);
  }
  return master;
}

/** The cluster hash slot of a key: CRC16 (XMODEM) of its hash tag (or of the whole key), mod 16384. */
function slotOf(key: string): number {
  const bytes = Buffer.from(key);
  let start = 0;
  let end = bytes.length;
  const open = bytes.indexOf(0x7b); // '{'
  const close = open === -1 ? -1 : bytes.indexOf(0x7d, open + 1); // '}'
  if (close > open + 1) [start, end] = [open + 1, close];
  let crc = 0;
  for (let i = start; i < end; i++) {
    crc ^= (bytes[i] as number) << 8;
    for (let bit = 0; bit < 8; bit++) crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
  }
  return crc % 16384;
}

/** The text of a Redis error reply or client failure. */
export function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** True for a server error reply (as opposed to a connection failure or timeout). */
export function isReplyError(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  // ioredis: ReplyError; node-redis: ErrorReply (and SimpleError / BlobError in v5+).
  return /^(ReplyError|ErrorReply|SimpleError|BlobError)$/.test(error.constructor.name) || /^(ReplyError|ErrorReply)$/.test(error.name);
}

/**
 * Runs `send` with a deadline. A client that queues commands while Redis is
 * down (node-redis's offline queue) would otherwise leave the caller waiting
 * for as long as Redis stays down. After the deadline the command may still
 * run later: callers report that as UNAVAILABLE, never as an answer.
 */
export function withDeadline<T>(promise: Promise<T>, milliseconds: number, what: string): Promise<T> {
  if (!(milliseconds > 0 && Number.isFinite(milliseconds))) return promise;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new FilterError('UNAVAILABLE', `Redis did not answer ${what} within ${milliseconds} ms`)),
      milliseconds,
    );
  });
  return Promise.race([promise, deadline]).finally(() => clearTimeout(timer));
}
