// A delta's screen: a small Bloom filter, in plain JavaScript, of every
// expression the delta adds or removes. An exact set lookup decodes a Rice
// block in wasm (microseconds); a URL's expressions are asked of every delta
// of a chain, and almost none is in any. The screen answers those in a few
// bit tests: "no" is certain (the same hash made it), "maybe" asks the exact
// sets. About 10 bits per changed expression at k = 7: ~1% of expressions
// outside the delta reach its exact sets.
const BITS_PER_EXPRESSION = 10;
const PROBES = 7;

/** Two independent 32-bit hashes of `expression` (FNV-1a over UTF-16 units, each with a murmur3 finalizer). */
export function hashPair(expression: string): [number, number] {
  let a = 0x811c9dc5;
  let b = 0x050c5d1f;
  for (let i = 0; i < expression.length; i++) {
    const unit = expression.charCodeAt(i);
    a = Math.imul(a ^ unit, 0x01000193);
    b = Math.imul(b ^ unit, 0x01000193) ^ (b >>> 15);
  }
  return [finalize(a), finalize(b) | 1];
}

function finalize(h: number): number {
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

/** The screen's bytes: k (1 byte), 3 reserved bytes, then the bit array (least significant bit first). */
export function buildScreen(expressions: Iterable<string>, count: number): Uint8Array {
  const bytes = Math.max(1, Math.ceil((count * BITS_PER_EXPRESSION) / 8));
  const out = new Uint8Array(4 + bytes);
  out[0] = PROBES;
  const bits = out.subarray(4);
  for (const expression of expressions) {
    for (const position of probes(expression, PROBES, bytes * 8)) bits[position >>> 3]! |= 1 << (position & 7);
  }
  return out;
}

function* probes(expression: string, k: number, m: number): Generator<number> {
  const [h1, h2] = hashPair(expression);
  for (let i = 0; i < k; i++) yield ((h1 + Math.imul(i, h2)) >>> 0) % m;
}

/** A screen read back: `mayHold` false is certain. Returns null for bytes that cannot be a screen. */
export function readScreen(bytes: Uint8Array): ((expression: string) => boolean) | null {
  const k = bytes[0];
  if (bytes.length < 5 || k === undefined || k < 1 || k > 32 || bytes[1] !== 0 || bytes[2] !== 0 || bytes[3] !== 0) return null;
  const bits = bytes.slice(4);
  const m = bits.length * 8;
  return (expression) => {
    const [h1, h2] = hashPair(expression);
    for (let i = 0; i < k; i++) {
      const position = ((h1 + Math.imul(i, h2)) >>> 0) % m;
      if ((bits[position >>> 3]! & (1 << (position & 7))) === 0) return false;
    }
    return true;
  };
}

/**
 * An order-independent digest of a list's distinct expressions (the sums of
 * both screen hashes, mod 2^32 each): a delta records its version's, so the
 * next delta can check it is made from that version's list, not another of
 * the same length. Not a security check: a wrong list by mistake.
 */
export function listDigest(expressions: Iterable<string>): [number, number] {
  let a = 0;
  let b = 0;
  for (const expression of expressions) {
    const [h1, h2] = hashPair(expression);
    a = (a + h1) >>> 0;
    b = (b + h2) >>> 0;
  }
  return [a, b];
}
