// Attack on incremental growth (#44): a record of the draining table damaged
// under a live writer (media damage; the bytes of one old record overwritten).
// The drain stops at its bucket for good (each later write retries it). The
// attack found close() — whose snapshot then first finished the drain —
// failing on that record with UNAVAILABLE "the log is closed and whole",
// though the log is damaged. Now: saveSnapshot() says CORRUPT, close() skips
// its snapshot while draining and claims nothing, the next open is CORRUPT.
import { openSync, writeSync, closeSync } from 'node:fs';
import { init } from '../../dist/index.import.cjs';
import { FileCuckooIndex } from '../../dist/index-file.mjs';
import { logDirectory } from './lib/log-files.mjs';

const freshPath = logDirectory('cbw-index-growth-attack-');
beforeAll(async () => {
  await init();
});

test('a draining table that meets a damaged record: saveSnapshot() is CORRUPT, close() claims nothing, the next open is CORRUPT', () => {
  const path = freshPath();
  const index = FileCuckooIndex.open(path, { capacity: 64 });
  let n = 0;
  while (index.stats().rebuilds === 0) index.set(`https://damage.example/${n++}`, 'v');
  index.sync();
  // Two bytes at byte 200: inside one of the first records (old table keys).
  const fd = openSync(path, 'r+');
  writeSync(fd, Buffer.from('XX'), 0, 2, 200);
  closeSync(fd);
  for (let i = 0; i < 20; i++) index.set(`new-${i}`, 'x'); // drains: stops at the damaged record's bucket
  // Saving must move the rest of the old table first, and cannot read that record.
  expect(() => index.saveSnapshot()).toThrow(expect.objectContaining({ code: 'CORRUPT' }));
  // close() skips its snapshot while the table drains (file-index.ts): it
  // neither reads the damaged record nor calls the log whole.
  let error;
  try {
    index.close();
  } catch (caught) {
    error = caught;
  }
  expect(error?.message ?? '').not.toMatch(/closed and whole/);
  expect(() => FileCuckooIndex.open(path)).toThrow(expect.objectContaining({ code: 'CORRUPT' }));
});
