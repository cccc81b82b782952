// A toy binary fuse filter (Graf & Lemire 2022) in plain TypeScript, for the explainer:
// the library's filter does not expose its slots, so the page builds a small one with the
// same three steps and records each, to be drawn one at a time.
//   1. Positions: a key's hash picks a first segment s and one offset per segment; its
//      three slots are in segments s, s + 1 and s + 2 (consecutive segments: the "fuse").
//   2. Peeling: while some slot is used by exactly one remaining key, that key is peeled
//      (it will own that slot) and removed from its three slots. It succeeds when every key
//      was peeled; otherwise the build retries with another seed.
//   3. Filling, in reverse peel order: a key's own slot gets fp(key) XOR its other two
//      slots, whose values never change afterwards, so for every key
//      B[p0] XOR B[p1] XOR B[p2] = fp(key). A lookup computes that XOR and compares.
// Its hash is a small string hash, not the library's: positions differ, the method does not.

export const ARITY = 3;

export interface FuseKey {
  key: string;
  /** Its three slots, one per consecutive segment. */
  positions: [number, number, number];
  fingerprint: number;
}

export interface PeelStep {
  /** Index into keys. */
  key: number;
  /** The slot only this key still used when it was peeled: the slot it owns. */
  slot: number;
}

export interface FuseBuild {
  keys: FuseKey[];
  segmentLength: number;
  segmentCount: number;
  slotCount: number;
  fingerprintBits: number;
  /** The seed that peeled (seeds 0, 1, … are tried in turn). */
  seed: number;
  /** Seeds tried before one peeled. */
  attempts: number;
  /** Keys in peel order. */
  peel: PeelStep[];
  /** The table after filling: the XOR of a key's three slots is its fingerprint. */
  table: number[];
}

export interface FuseShape {
  segmentLength: number;
  /** Segments a key's first position may be in; the table has segmentCount + 2 segments. */
  segmentCount: number;
  fingerprintBits: number;
}

/** FNV-1a over UTF-16 units then a murmur3 finaliser: 32 well-mixed bits of (seed, key, salt). */
export function hash32(key: string, seed: number, salt: number): number {
  let value = (0x811c9dc5 ^ Math.imul(seed + 1, 0x9e3779b9) ^ Math.imul(salt + 1, 0x85ebca6b)) >>> 0;
  for (let i = 0; i < key.length; i++) value = Math.imul(value ^ key.charCodeAt(i), 0x01000193);
  value ^= value >>> 16;
  value = Math.imul(value, 0x85ebca6b);
  value ^= value >>> 13;
  value = Math.imul(value, 0xc2b2ae35);
  value ^= value >>> 16;
  return value >>> 0;
}

/** Where a key goes for this seed: three slots in three consecutive segments, and its fingerprint. */
export function locateKey(key: string, seed: number, shape: FuseShape): FuseKey {
  const { segmentLength: length, segmentCount, fingerprintBits } = shape;
  const first = hash32(key, seed, 0) % segmentCount;
  const positions = [0, 1, 2].map((j) => (first + j) * length + (hash32(key, seed, j + 1) % length)) as [number, number, number];
  return { key, positions, fingerprint: hash32(key, seed, 9) & ((1 << fingerprintBits) - 1) };
}

/** The XOR of a key's three slots in `table`: equal to its fingerprint for every key built in. */
export function xorOf(table: readonly number[], positions: readonly number[]): number {
  return positions.reduce((sum, position) => sum ^ (table[position] ?? 0), 0);
}

/** Peels `keys`: the order in which each key was found alone in a slot, or null when it got stuck. */
export function peel(keys: readonly FuseKey[], slotCount: number): PeelStep[] | null {
  const users: Set<number>[] = Array.from({ length: slotCount }, () => new Set());
  keys.forEach((key, index) => key.positions.forEach((slot) => users[slot]!.add(index)));
  const order: PeelStep[] = [];
  const queue = users.flatMap((set, slot) => (set.size === 1 ? [slot] : []));
  while (queue.length > 0) {
    const slot = queue.shift()!;
    if (users[slot]!.size !== 1) continue;
    const key = [...users[slot]!][0]!;
    order.push({ key, slot });
    for (const other of keys[key]!.positions) {
      users[other]!.delete(key);
      if (users[other]!.size === 1) queue.push(other);
    }
  }
  return order.length === keys.length ? order : null;
}

/** Fills the table in reverse peel order (step 3 above). */
export function fill(keys: readonly FuseKey[], order: readonly PeelStep[], slotCount: number): number[] {
  const table = new Array<number>(slotCount).fill(0);
  for (const { key, slot } of [...order].reverse()) {
    const { positions, fingerprint } = keys[key]!;
    table[slot] = fingerprint ^ xorOf(table, positions.filter((position) => position !== slot));
  }
  return table;
}

/** Builds the toy from distinct keys, trying seeds until peeling succeeds. */
export function buildFuse(keys: readonly string[], shape: FuseShape, maxAttempts = 100): FuseBuild {
  const slotCount = (shape.segmentCount + ARITY - 1) * shape.segmentLength;
  for (let seed = 0; seed < maxAttempts; seed++) {
    const located = keys.map((key) => locateKey(key, seed, shape));
    const order = peel(located, slotCount);
    if (order === null) continue;
    return { ...shape, keys: located, slotCount, seed, attempts: seed + 1, peel: order, table: fill(located, order, slotCount) };
  }
  throw new Error(`the toy fuse filter did not peel in ${maxAttempts} seeds: give it more slots`);
}
