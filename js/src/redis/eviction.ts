import { FilterError } from '../index.js';
import { describeValue } from '../keys/keys.js';
import { errorText, isReplyError, type RedisArgument, type RedisCommandRunner, withDeadline } from './clients.js';

// Whether the Redis a filter lives on may evict its keys, checked by every
// create and open. An evicted key is answered CORRUPT, never false, as long
// as any key of the filter is left; but a filter whose every key was evicted
// leaves nothing to tell the next create that it existed, and that create
// makes a new, empty filter: false negatives for every key added before. So
// a server that can evict them is refused unless the caller opts in
// (`allowEviction: true`), rather than warned about once per process.

/** What create and open pass: which filter, the opt-in, and the caller's name for messages. */
export interface EvictionCheck {
  /** An expiring filter: its generations carry an expiry, so `volatile-*` policies evict them too. */
  expiring: boolean;
  allowEviction: boolean;
  /** 'RedisBloomFilter.create', … */
  where: string;
  timeoutMs: number;
}

/**
 * The `allowEviction` option: false when absent.
 * @throws FilterError `INVALID_ARGUMENT` for anything but a boolean.
 */
export function checkAllowEviction(value: unknown, where: string): boolean {
  if (value === undefined) return false;
  if (typeof value !== 'boolean') {
    throw new FilterError('INVALID_ARGUMENT', `${where}: allowEviction must be true or false, got ${describeValue(value)}`);
  }
  return value;
}

/** The fields of an INFO reply ("name:value" lines). */
function infoFields(reply: unknown): Map<string, string> {
  const text = typeof reply === 'string' ? reply : reply instanceof Uint8Array ? Buffer.from(reply).toString('latin1') : '';
  const fields = new Map<string, string>();
  for (const line of text.split(/\r?\n/)) {
    const colon = line.indexOf(':');
    if (colon > 0) fields.set(line.slice(0, colon), line.slice(colon + 1).trim());
  }
  return fields;
}

/**
 * Refuses a server that may evict the filter's keys: a `maxmemory` limit with
 * an `allkeys-*` policy (any filter) or a `volatile-*` one (an expiring
 * filter). Read with `INFO memory` on the master serving `key` (its slot's
 * master on a cluster): permitted where `CONFIG GET` often is not (managed
 * Redis), and it reports the limit and policy in force. When `INFO` is
 * refused or lacks them, the policy is unknown, and that is refused too:
 * `allowEviction: true` is then the caller's word that nothing evicts.
 * Nothing is sent with `allowEviction: true`.
 * @throws FilterError `UNSUPPORTED` naming the policy (or why it is unknown);
 *   `UNAVAILABLE` when Redis cannot be reached.
 */
export async function checkEviction(redis: RedisCommandRunner, key: string, check: EvictionCheck): Promise<void> {
  if (check.allowEviction) return;
  const args: RedisArgument[] = ['INFO', 'memory'];
  let reply: unknown;
  try {
    const sent = redis.sendToMasterOf !== undefined ? redis.sendToMasterOf(key, args) : redis.send(args);
    reply = await withDeadline(Promise.resolve(sent), check.timeoutMs, 'INFO memory');
  } catch (error) {
    if (!isReplyError(error)) {
      if (error instanceof FilterError) throw error;
      throw new FilterError('UNAVAILABLE', `Redis failed during ${check.where} (INFO memory): ${errorText(error)}`, { cause: error });
    }
    throw unknownPolicy(check, key, `INFO memory was refused (${errorText(error)})`, error);
  }
  const fields = infoFields(reply);
  const limit = fields.get('maxmemory');
  const policy = fields.get('maxmemory_policy');
  if (limit === undefined || policy === undefined || !/^\d+$/.test(limit)) {
    throw unknownPolicy(check, key, 'INFO memory did not report maxmemory and maxmemory_policy', undefined);
  }
  // maxmemory 0: no limit, nothing is evicted.
  const evicts = limit !== '0' && (policy.startsWith('allkeys-') || (check.expiring && policy.startsWith('volatile-')));
  if (!evicts) return;
  throw new FilterError(
    'UNSUPPORTED',
    `${check.where}('${key}'): Redis evicts keys under maxmemory ${limit} with maxmemory-policy ${policy}, ` +
      `which can remove this filter's keys${check.expiring && policy.startsWith('volatile-') ? ' (its generations carry an expiry)' : ''}: ` +
      'a filter whose every key is evicted is made again empty by the next create, answering false for keys already added. ' +
      `Set maxmemory-policy noeviction${check.expiring ? '' : ' (or a volatile-* policy)'}, or pass allowEviction: true to accept that ` +
      '(https://github.com/cuckoo-bloom-wasm/cuckoo-bloom-wasm/blob/main/docs/REDIS.md: "What Redis can lose")',
  );
}

function unknownPolicy(check: EvictionCheck, key: string, why: string, cause: unknown): FilterError {
  return new FilterError(
    'UNSUPPORTED',
    `${check.where}('${key}'): cannot tell whether Redis may evict this filter's keys: ${why}. ` +
      'Grant INFO to this user, or pass allowEviction: true if the server never evicts them (maxmemory-policy noeviction) ' +
      '(https://github.com/cuckoo-bloom-wasm/cuckoo-bloom-wasm/blob/main/docs/REDIS.md: "What Redis can lose")',
    cause === undefined ? undefined : { cause },
  );
}
