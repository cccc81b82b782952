// What every Redis suite sets up the same way: skipping (or failing, under CI)
// without a redis-server, a private server per describe block, one client of
// either library connected to it, raw commands through either client, and
// the check that a call failed with a FilterError of a given code.
import { FilterError } from '../../../dist/index.import.cjs';
import { connect } from './clients.mjs';
import { redisAvailable, startRedis } from './redis-server.mjs';

export const describeIfRedis = redisAvailable() ? describe : describe.skip;

/** A raw command through either client (ioredis also has a sendCommand, of another shape). */
export const run = (client, args) => (client.callBuffer ? client.call(...args) : client.sendCommand(args));

export const keysOf = (prefix, count) => Array.from({ length: count }, (_, i) => `${prefix}${i}`);

/**
 * A private redis-server for the enclosing describe block (started before its
 * tests, stopped after them), and with `clientName` one client connected to it.
 * Read `.server`, `.client` inside the tests: they are set by then.
 */
export function privateRedis({ clientName, persistent = false } = {}) {
  const redis = { server: undefined, client: undefined, close: undefined };
  beforeAll(async () => {
    redis.server = await startRedis({ persistent });
    if (clientName) ({ client: redis.client, close: redis.close } = await connect(clientName, redis.server));
  });
  afterAll(async () => {
    await redis.close?.();
    await redis.server?.stop();
  });
  return redis;
}

/** The promise rejects with a FilterError of `code` (and a message matching `pattern`, when given). */
export async function expectFilterError(promise, code, pattern) {
  const error = await promise.then(
    () => null,
    (caught) => caught,
  );
  expect(error).toBeInstanceOf(FilterError);
  expect(error.code).toBe(code);
  if (pattern) expect(error.message).toMatch(pattern);
}
