// A child process for the kill -9 test: sets key-0, key-1, ... in the file
// index at argv[2] (value "value-i"; every 7th key is then deleted again) and
// reports each one on stdout only after set/delete returned. Runs until killed.
import { writeSync } from 'node:fs';
import { init } from '../../../dist/index.import.cjs';
import { FileCuckooIndex } from '../../../dist/index-file.mjs';

await init();
const index = FileCuckooIndex.open(process.argv[2]);
writeSync(1, 'ready\n');
for (let i = 0; ; i++) {
  index.set(`key-${i}`, `value-${i}`);
  // writeSync: the line is in the pipe when the parent may read it, never buffered past a kill.
  writeSync(1, `set ${i}\n`);
  if (i % 7 === 0) {
    index.delete(`key-${i}`);
    writeSync(1, `deleted ${i}\n`);
  }
}
