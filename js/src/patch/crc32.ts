// CRC-32 (IEEE 802.3, the zlib/PNG polynomial) in plain JavaScript: a patch
// checks the bytes it produced without the wasm module, so `applyPatch` works
// in any entry (the reader entry too) and before `init()`.

let table: Uint32Array | null = null;

function crcTable(): Uint32Array {
  if (table !== null) return table;
  table = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
}

/** The CRC-32 of `bytes` (as zlib's `crc32`), an unsigned 32-bit integer. */
export function crc32(bytes: Uint8Array): number {
  return new Crc32().update(bytes).value();
}

/**
 * Operators of the CRC register for runs of zero bytes: zeroPowers[i] is the
 * 32×32 bit matrix (32 columns) that appends 2^i zero bytes. One zero byte is
 * a linear map of the register (c -> table[c & 0xff] ^ (c >>> 8)), so n zero
 * bytes are a product of at most 32 of these: O(log n), not O(n).
 */
let zeroPowers: Uint32Array[] | null = null;

function applyMatrix(matrix: Uint32Array, vector: number): number {
  let sum = 0;
  for (let i = 0; vector !== 0; i++, vector >>>= 1) if (vector & 1) sum ^= matrix[i]!;
  return sum >>> 0;
}

function zeroOperators(): Uint32Array[] {
  if (zeroPowers !== null) return zeroPowers;
  const t = crcTable();
  const one = new Uint32Array(32);
  for (let j = 0; j < 32; j++) one[j] = (t[(1 << j) & 0xff]! ^ ((1 << j) >>> 8)) >>> 0;
  const powers = [one];
  for (let i = 1; i < 32; i++) {
    const last = powers[i - 1]!;
    powers.push(Uint32Array.from(last, (column) => applyMatrix(last, column)));
  }
  zeroPowers = powers;
  return powers;
}

/** A CRC-32 computed a piece at a time: bytes, or a run of zero bytes of any length at O(log n). */
export class Crc32 {
  #register = 0xffffffff;

  update(bytes: Uint8Array, start = 0, end = bytes.length): this {
    const t = crcTable();
    let c = this.#register;
    for (let i = start; i < end; i++) c = t[(c ^ bytes[i]!) & 0xff]! ^ (c >>> 8);
    this.#register = c >>> 0;
    return this;
  }

  byte(value: number): this {
    const t = crcTable();
    this.#register = (t[(this.#register ^ value) & 0xff]! ^ (this.#register >>> 8)) >>> 0;
    return this;
  }

  /** As `count` zero bytes (count < 2^32). */
  zeros(count: number): this {
    const powers = zeroOperators();
    let c = this.#register;
    for (let i = 0; count > 0; i++, count = Math.floor(count / 2)) if (count % 2 === 1) c = applyMatrix(powers[i]!, c);
    this.#register = c;
    return this;
  }

  value(): number {
    return (this.#register ^ 0xffffffff) >>> 0;
  }
}
