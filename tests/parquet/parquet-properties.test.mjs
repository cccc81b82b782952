// Properties of the Parquet reader on generated hostile input (fast-check, fixed seeds):
// whatever the footer and the filter header say, reading gives filters no larger than the
// file, or a FilterError CORRUPT or UNSUPPORTED, never another exception or a hang. The
// generated files are well-framed (PAR1, a footer length that fits) around footers that
// are random bytes, or a valid file's footer and filter header with random bytes written
// over them, so the property reaches past the framing checks into the Thrift and header reads.
import fc from 'fast-check';
import { loadParquetModule } from './parquet-module.mjs';
import { T, struct, i32, bloomHeader, parquetFile } from './thrift-writer.mjs';

let parquet;
beforeAll(async () => {
  parquet = await loadParquetModule();
});

/** True when reading `file` gives bounded filters or a typed refusal; the outcome is counted. */
function readsOrRefuses(file, outcomes) {
  try {
    const filters = parquet.readParquetBloomFilters(file);
    for (const f of filters) if (f.filter.bitset.length > file.length) return false;
    outcomes.read++;
    return true;
  } catch (error) {
    if (!(error instanceof parquet.FilterError) || !['CORRUPT', 'UNSUPPORTED'].includes(error.code)) throw error;
    outcomes[error.code]++;
    return true;
  }
}

test('random footers inside a well-framed file read or are typed errors', () => {
  const outcomes = { read: 0, CORRUPT: 0, UNSUPPORTED: 0 };
  fc.assert(
    fc.property(fc.uint8Array({ maxLength: 200 }), (metadata) => readsOrRefuses(parquetFile([], [], { metadataBytes: [...metadata] }), outcomes)),
    { seed: 46, numRuns: 3000 },
  );
  expect(outcomes.CORRUPT).toBeGreaterThan(100);
});

test("a valid file's footer and filter header overwritten at random read or are typed errors", () => {
  // Two filters, each its own bytes (filters sharing bytes are CORRUPT): one with its length recorded, one without.
  const one = [...bloomHeader(64), ...new Array(64).fill(0x5a)];
  const body = [...one, ...one];
  const valid = parquetFile(body, [{ name: 'n', type: 2, offset: 4, length: one.length }, { name: 's', type: 6, offset: 4 + one.length }]);
  expect(parquet.readParquetBloomFilters(valid)).toHaveLength(2);
  const outcomes = { read: 0, CORRUPT: 0, UNSUPPORTED: 0 };
  const edit = fc.record({ at: fc.nat({ max: valid.length - 9 }), bytes: fc.uint8Array({ minLength: 1, maxLength: 4 }) });
  fc.assert(
    fc.property(fc.array(edit, { minLength: 1, maxLength: 4 }), (edits) => {
      const file = valid.slice();
      for (const { at, bytes } of edits) file.set(bytes.subarray(0, valid.length - 8 - at), at);
      return readsOrRefuses(file, outcomes);
    }),
    { seed: 4646, numRuns: 3000 },
  );
  // Both outcomes happen: the edits reach past the first check.
  expect(outcomes.read).toBeGreaterThan(100);
  expect(outcomes.CORRUPT).toBeGreaterThan(100);
});

test('a filter header of random fields is a typed error or a size within its bytes', () => {
  fc.assert(
    fc.property(fc.array(fc.tuple(fc.integer({ min: 1, max: 6 }), fc.integer({ min: -(2 ** 31), max: 2 ** 31 - 1 })), { maxLength: 6 }), fc.uint8Array({ maxLength: 16 }), (fields, tail) => {
      const bytes = Uint8Array.from([...struct(fields.map(([id, value]) => [id, T.I32, i32(value)])), ...tail]);
      try {
        const header = parquet.readBloomFilterHeader(bytes, 0, bytes.length);
        return header.headerLength <= bytes.length && header.numBytes >= 0;
      } catch (error) {
        return error instanceof parquet.FilterError && ['CORRUPT', 'UNSUPPORTED'].includes(error.code);
      }
    }),
    { seed: 464, numRuns: 2000 },
  );
});
