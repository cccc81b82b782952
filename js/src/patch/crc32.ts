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
  const t = crcTable();
  let c = 0xffffffff;
  for (let i = 0; i < bytes.length; i++) c = t[(c ^ bytes[i]!) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}
