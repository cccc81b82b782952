// Attack on incremental growth (#44): a store read that fails while a set
// drains the old table is swallowed (the set succeeds, drainSome() ignores
// the error), but StoreBridge keeps the thrown error in `failure`. The next
// unrelated failing call picks it up in #check(): its code and message
// become the stale read error's.
import { CuckooIndex, FilterError, init } from '../../dist/index.import.cjs';

beforeAll(async () => {
  await init();
});

/** An in-memory IndexRecordStore whose reads throw while `failing` is set. */
class FlakyStore {
  bytes = new Uint8Array(1 << 16);
  length = 0;
  failing = false;
  get byteLength() {
    return this.length;
  }
  append(record) {
    if (this.length + record.length > this.bytes.length) {
      const grown = new Uint8Array(2 * (this.length + record.length));
      grown.set(this.bytes.subarray(0, this.length));
      this.bytes = grown;
    }
    this.bytes.set(record, this.length);
    const at = this.length;
    this.length += record.length;
    return at;
  }
  readInto(offset, target) {
    if (this.failing) throw new FilterError('UNAVAILABLE', `EIO reading the log at ${offset}`);
    const count = Math.min(target.length, this.length - offset);
    target.set(this.bytes.subarray(offset, offset + count));
    return count;
  }
}

test('a read error swallowed by a drain does not become the error of a later, unrelated call', () => {
  const store = new FlakyStore();
  const index = new CuckooIndex({ capacity: 16 }, store);
  let n = 0;
  while (index.stats().rebuilds === 0) index.set(`k${n++}`, 'v');
  // The old table drains on the next writes; its key reads fail now.
  store.failing = true;
  expect(index.set('a-new-key', 'x')).toBe(true); // succeeds: the drain's read error is left for later
  store.failing = false;
  // A key longer than the index's limit (1 MiB): INVALID_ARGUMENT, nothing to do with the store.
  let error;
  try {
    index.set(new Uint8Array((1 << 20) + 1));
  } catch (caught) {
    error = caught;
  }
  expect(error).toBeInstanceOf(FilterError);
  expect(error.message).not.toMatch(/EIO/); // got: "...longer than the index's limit...: EIO reading the log at 180"
  expect(error.code).toBe('INVALID_ARGUMENT'); // got: UNAVAILABLE
  index.free();
});
