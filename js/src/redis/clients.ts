import { FilterError } from '../index.js';
import { describeValue } from '../keys.js';

/** One argument of a Redis command. */
export type RedisArgument = string | Buffer;

/**
 * The two calls this package needs from a Redis client. node-redis (v4 and
 * later) and ioredis clients are adapted to it automatically; pass your own
 * object of this shape for anything else (a cluster client routed by the
 * command's first key, a tracing wrapper, ...).
 */
export interface RedisCommandRunner {
  /** Sends one command; bulk-string replies as strings. Rejects with the server's error reply. */
  send(args: readonly RedisArgument[]): Promise<unknown>;
  /** Sends one command; bulk-string replies as Buffers (binary data). */
  sendForBytes(args: readonly RedisArgument[]): Promise<unknown>;
}

/** A node-redis client (`createClient()` from the `redis` package, v4+). */
interface NodeRedisLike {
  sendCommand(args: RedisArgument[], options?: object): Promise<unknown>;
}
/** An ioredis client or cluster (`new Redis()`, `new Redis.Cluster()`). */
interface IoRedisLike {
  call(command: string, ...args: RedisArgument[]): Promise<unknown>;
  callBuffer(command: string, ...args: RedisArgument[]): Promise<unknown>;
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
      return {
        send: ([command, ...args]) => io.call(command as string, ...args),
        sendForBytes: ([command, ...args]) => io.callBuffer(command as string, ...args),
      };
    }
    if (isFunction(candidate.sendCommand)) {
      const nodeRedis = client as NodeRedisLike;
      // v5+ takes a typeMapping; v4 (which has no withTypeMapping) takes returnBuffers.
      const bytes = isFunction(candidate.withTypeMapping) ? NODE_REDIS_BUFFERS : NODE_REDIS_V4_BUFFERS;
      return {
        send: (args) => nodeRedis.sendCommand(args as RedisArgument[]),
        sendForBytes: (args) => nodeRedis.sendCommand(args as RedisArgument[], bytes),
      };
    }
  }
  throw new FilterError(
    'INVALID_ARGUMENT',
    `expected a connected node-redis or ioredis client (or an object with send and sendForBytes), got ${describeValue(client)}`,
  );
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
