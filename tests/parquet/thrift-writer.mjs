// A tiny writer of Thrift's compact protocol, for the suites to hand-craft Parquet
// footers and Bloom filter headers, hostile ones included. Kept apart from the
// reader under test (js/src/parquet/thrift-compact.ts) so it cannot share its bugs.
export const T = { I32: 5, I64: 6, BINARY: 8, LIST: 9, STRUCT: 12 };

export function varint(value) {
  let v = BigInt(value);
  const out = [];
  do {
    let byte = Number(v & 0x7fn);
    v >>= 7n;
    if (v > 0n) byte |= 0x80;
    out.push(byte);
  } while (v > 0n);
  return out;
}
export const zigzag = (value) => {
  const v = BigInt(value);
  return v >= 0n ? v * 2n : -v * 2n - 1n;
};

// A field: [id, type, valueBytes]; ids written as deltas when they fit.
export function struct(fields) {
  const out = [];
  let previous = 0;
  for (const [id, type, value] of fields) {
    const delta = id - previous;
    if (delta > 0 && delta <= 15) out.push((delta << 4) | type);
    else out.push(type, ...varint(zigzag(id)));
    out.push(...value);
    previous = id;
  }
  out.push(0);
  return out;
}
export const i32 = (value) => varint(zigzag(value));
export const i64 = (value) => varint(zigzag(value));
export const binary = (text) => {
  const bytes = [...new TextEncoder().encode(text)];
  return [...varint(bytes.length), ...bytes];
};
export function list(elementType, elements) {
  const header = elements.length < 15 ? [(elements.length << 4) | elementType] : [0xf0 | elementType, ...varint(elements.length)];
  return [...header, ...elements.flat()];
}

// The BloomFilterHeader the spec defines: numBytes and its three singleton unions.
export function bloomHeader(numBytes, { algorithm = 1, hash = 1, compression = 1 } = {}) {
  const union = (member) => struct([[member, T.STRUCT, struct([])]]);
  return struct([
    [1, T.I32, i32(numBytes)],
    [2, T.STRUCT, union(algorithm)],
    [3, T.STRUCT, union(hash)],
    [4, T.STRUCT, union(compression)],
  ]);
}

// A whole Parquet file: PAR1, the `body` bytes, then a FileMetaData with one row group
// holding `columns` ({ name, type, offset, length }), its length and PAR1.
export function parquetFile(body, columns, { metadataBytes } = {}) {
  const columnChunk = ({ name, type, offset, length }) => {
    const meta = [[1, T.I32, i32(type)], [3, T.LIST, list(T.BINARY, [binary(name)])]];
    if (offset !== undefined) meta.push([14, T.I64, i64(offset)]);
    if (length !== undefined) meta.push([15, T.I32, i32(length)]);
    return struct([[2, T.I64, i64(4)], [3, T.STRUCT, struct(meta)]]);
  };
  const metadata =
    metadataBytes ??
    struct([
      [1, T.I32, i32(2)],
      [3, T.I64, i64(1)],
      [4, T.LIST, list(T.STRUCT, [struct([[1, T.LIST, list(T.STRUCT, columns.map(columnChunk))], [3, T.I64, i64(1)]])])],
    ]);
  const length = metadata.length;
  return new Uint8Array([0x50, 0x41, 0x52, 0x31, ...body, ...metadata, length & 255, (length >> 8) & 255, (length >> 16) & 255, length >>> 24, 0x50, 0x41, 0x52, 0x31]);
}
