// One fault model for index logs (docs/EXACT-INDEX.md, "Durability, precisely"):
// each fault turns a log's bytes into other bytes and says what opening must
// report. `records` are parseRecords(bytes); every generator yields
// { fault, name, damaged, offset }, where `offset` is the byte the CORRUPT
// message must name. A crash is the one fault that is not damage: what it
// leaves must open, with only the unfinished record dropped.

const start = (records, i, bytes) => (i < records.length ? records[i].start : bytes.length);
const recordBytes = (bytes, records, i) => bytes.subarray(records[i].start, records[i].end);

/** Every record cut out on its boundaries (`last`: how many of them, from the first). */
export function* cuts(bytes, records, last = records.length) {
  for (let i = 0; i < last; i++) {
    yield {
      fault: 'cut',
      name: `cut record ${i}`,
      damaged: Buffer.concat([bytes.subarray(0, records[i].start), bytes.subarray(records[i].end)]),
      offset: records[i].start,
    };
  }
}

/** Every pair of neighbouring records swapped. */
export function* reorders(bytes, records) {
  for (let i = 0; i + 1 < records.length; i++) {
    yield {
      fault: 'reorder',
      name: `swap records ${i} and ${i + 1}`,
      damaged: Buffer.concat([
        bytes.subarray(0, records[i].start),
        recordBytes(bytes, records, i + 1),
        recordBytes(bytes, records, i),
        bytes.subarray(records[i + 1].end),
      ]),
      offset: records[i].start,
    };
  }
}

/**
 * A record of another log (`foreign`: its records' bytes, the same records
 * in the same places) inserted at every place, and copied over every record.
 */
export function* splices(bytes, records, foreign) {
  for (let i = 0; i <= records.length; i++) {
    const theirs = foreign[Math.min(i, foreign.length - 1)];
    const at = start(records, i, bytes);
    yield { fault: 'splice', name: `insert at ${i}`, damaged: Buffer.concat([bytes.subarray(0, at), theirs, bytes.subarray(at)]), offset: at };
    if (i < records.length) {
      yield {
        fault: 'splice',
        name: `replace record ${i}`,
        damaged: Buffer.concat([bytes.subarray(0, at), theirs, bytes.subarray(records[i].end)]),
        offset: at,
      };
    }
  }
}

/** One bit flipped in every byte of [from, to) (bit `at % 8`), reported at the record holding it. */
export function* flips(bytes, records, from, to) {
  for (let at = from; at < to; at++) {
    const damaged = Buffer.from(bytes);
    damaged[at] ^= 1 << (at % 8);
    const hit = records.find((record) => record.start <= at && at < record.end);
    yield { fault: 'flip', name: `flip byte ${at}`, damaged, offset: hit.start };
  }
}

/** The log cut at every length from `from` to one byte short of its end, reported at the record the cut is in (or ends at). */
export function* truncations(bytes, records, from = records[0].start) {
  for (let length = from; length < bytes.length; length++) {
    const hit = records.find((record) => record.start <= length && length < record.end);
    yield { fault: 'truncate', name: `truncate to ${length}`, damaged: bytes.subarray(0, length), offset: hit.start };
  }
}

/**
 * What a crash while writing the record `last` (a log that was never closed
 * after it: no close marker) leaves: the log cut at every byte inside that
 * record. Not damage: `kept` is where opening must cut it.
 */
export function* crashes(bytes, records, last) {
  for (let length = records[last].start; length < records[last].end; length++) {
    yield { fault: 'crash', name: `crash at ${length}`, damaged: bytes.subarray(0, length), kept: records[last].start };
  }
}
