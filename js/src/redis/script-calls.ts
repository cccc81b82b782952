import { FilterError } from '../index.js';
import { describeValue, type Key } from '../keys/keys.js';
import { CALLS_IN_FLIGHT, checkedKeys, KEYS_PER_SCRIPT, runBounded } from './commands.js';
import type { CallPlan, PlannedGroup } from './positions.js';

// How a batch of keys becomes script calls and the calls' replies become
// answers, the same for every Redis-backed filter: a script blocks Redis
// while it runs, so a batch is cut into calls of KEYS_PER_SCRIPT keys.

/**
 * One answer per key of `keys`, from script calls of at most KEYS_PER_SCRIPT
 * keys each, CALLS_IN_FLIGHT at a time. `call(part, offset, answers)` sets
 * answers[offset + i] for part[i] (every answer starts false). Each call is
 * planned when it starts, so the next one is hashed while Redis runs the
 * previous one.
 * @throws FilterError `INVALID_ARGUMENT` for anything but an array of keys; what a call throws.
 */
export async function answerInScriptCalls(
  given: Iterable<Key>,
  call: (part: readonly Key[], offset: number, answers: boolean[]) => Promise<void>,
): Promise<boolean[]> {
  const keys = checkedKeys(given);
  const answers = new Array<boolean>(keys.length).fill(false);
  const calls: Array<() => Promise<void>> = [];
  for (let start = 0; start < keys.length; start += KEYS_PER_SCRIPT) {
    const end = Math.min(keys.length, start + KEYS_PER_SCRIPT);
    calls.push(() => call(start === 0 && end === keys.length ? keys : keys.slice(start, end), start, answers));
  }
  await runBounded(calls, CALLS_IN_FLIGHT);
  return answers;
}

/**
 * A script's reply of one character per key of `groups`, '1' or '0', in the
 * plan's order, into answers[offset + the key's index in its call].
 * @throws FilterError `UNAVAILABLE` for a reply of another length or type.
 */
export function readAnswerText(reply: unknown, plan: CallPlan, groups: readonly PlannedGroup[], answers: boolean[], offset: number): void {
  const text = typeof reply === 'string' ? reply : Buffer.isBuffer(reply) ? reply.toString('latin1') : '';
  const expected = groups.reduce((sum, group) => sum + group.count, 0);
  if (text.length !== expected) {
    throw new FilterError('UNAVAILABLE', `Redis answered ${text.length} of ${expected} keys (${describeValue(reply)})`);
  }
  let position = 0;
  for (const group of groups) {
    const end = group.first + group.count;
    for (let n = group.first; n < end; n++) answers[offset + (plan.order[n] as number)] = text.charCodeAt(position++) === 49; // '1'
  }
}

/**
 * The one-key forms every Redis-backed filter offers over its batches: `add`
 * and `has` are `addMany` and `hasMany` of one key (one round trip each), so
 * a key is planned, sent and answered one way only.
 */
export abstract class RedisKeyedFilter {
  /** For each key, whether it was new (see the class's `addMany`). */
  abstract addMany(keys: Iterable<Key>): Promise<boolean[]>;
  /** For each key, whether it may be present (see the class's `hasMany`). */
  abstract hasMany(keys: Iterable<Key>): Promise<boolean[]>;

  /** Adds a key; true when it was new (as `addMany` says: not reported present before). One round trip. */
  async add(key: Key): Promise<boolean> {
    return (await this.addMany([key]))[0] as boolean;
  }

  /** True when the key may have been added (as `hasMany` says); false when it certainly was not. One round trip. */
  async has(key: Key): Promise<boolean> {
    return (await this.hasMany([key]))[0] as boolean;
  }

  /** What the summary shows after the class name: the filter's key, sizing and bytes (no round trip). */
  protected abstract describe(): string;

  /** `console.log(filter)` and `util.inspect`: one line, read from the handle (Redis is not asked). */
  [Symbol.for('nodejs.util.inspect.custom')](): string {
    return `${this.constructor.name} { ${this.describe()} }`;
  }

  /** `String(filter)`: the same one-line summary. */
  toString(): string {
    return `${this.constructor.name} { ${this.describe()} }`;
  }
}
