// The BloomFilterHeader that precedes each bitset (parquet.thrift):
//   1: i32 numBytes
//   2: BloomFilterAlgorithm algorithm     union { 1: SplitBlockAlgorithm BLOCK }
//   3: BloomFilterHash hash               union { 1: XxHash XXHASH }
//   4: BloomFilterCompression compression union { 1: Uncompressed UNCOMPRESSED }
// The spec defines one member of each union; another member is a filter this
// reader cannot evaluate (UNSUPPORTED), a missing field is CORRUPT.
import { FilterError } from '../errors.js';
import { CompactReader, CompactType } from './thrift-compact.js';

/** What a BloomFilterHeader says the reader needs: the bitset's size and where it starts. */
export interface BloomFilterHeader {
  /** The bitset's bytes (the header's numBytes). */
  numBytes: number;
  /** Bytes the header takes: the bitset starts right after it. */
  headerLength: number;
}

function readSingletonUnion(reader: CompactReader, name: string, member: string, depth: number): void {
  let members = 0;
  reader.readStruct((field) => {
    members++;
    if (field.id !== 1) {
      throw new FilterError('UNSUPPORTED', `Bloom filter header: ${name} member ${field.id} is not ${member}, the only one the spec defines`);
    }
    reader.expectType(field, CompactType.Struct, `${name}.${member}`);
    reader.readStruct(() => false, depth + 2); // an empty struct; unknown fields skipped
    return true;
  }, depth + 1);
  if (members !== 1) throw reader.corrupt(`${name} has ${members} members, a union has one`);
}

/** Reads the header at `offset`, reading no byte at or past `end`. */
export function readBloomFilterHeader(bytes: Uint8Array, offset: number, end: number): BloomFilterHeader {
  if (offset < 0 || offset >= end || end > bytes.length) {
    throw new FilterError('CORRUPT', `Bloom filter header: offset ${offset} is outside the file (${bytes.length} bytes)`);
  }
  const reader = new CompactReader(bytes, offset, end, 'Bloom filter header');
  let numBytes: number | undefined;
  const seen = new Set<number>();
  reader.readStruct((field, depth) => {
    switch (field.id) {
      case 1:
        reader.expectType(field, CompactType.I32, 'numBytes');
        numBytes = reader.readI32();
        break;
      case 2:
        reader.expectType(field, CompactType.Struct, 'algorithm');
        readSingletonUnion(reader, 'algorithm', 'BLOCK', depth);
        break;
      case 3:
        reader.expectType(field, CompactType.Struct, 'hash');
        readSingletonUnion(reader, 'hash', 'XXHASH', depth);
        break;
      case 4:
        reader.expectType(field, CompactType.Struct, 'compression');
        readSingletonUnion(reader, 'compression', 'UNCOMPRESSED', depth);
        break;
      default:
        return false;
    }
    seen.add(field.id);
    return true;
  });
  for (const [id, name] of [[1, 'numBytes'], [2, 'algorithm'], [3, 'hash'], [4, 'compression']] as const) {
    if (!seen.has(id)) throw reader.corrupt(`the required field ${name} is missing`);
  }
  return { numBytes: numBytes!, headerLength: reader.position - offset };
}
