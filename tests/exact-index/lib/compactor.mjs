// A child process for the kill -9 during compaction test: opens the file index
// at argv[2], sets key-0 .. key-(n-1) (n = argv[3]; value "value-i", every 5th
// key then updated to "updated-i" so compaction has dead records to drop),
// reports "set <n>" once they all returned, then compacts again and again,
// setting one more key "extra-j" after each compaction and reporting
// "compacting j" before and "extra j" after it. Runs until killed.
import { writeSync } from 'node:fs';
import { init } from '../../../dist/index.import.cjs';
import { FileCuckooIndex } from '../../../dist/index-file.mjs';

await init();
const n = Number(process.argv[3]);
const index = FileCuckooIndex.open(process.argv[2], { snapshotOnClose: false });
for (let i = 0; i < n; i++) {
  index.set(`key-${i}`, `value-${i}`);
  if (i % 5 === 0) index.set(`key-${i}`, `updated-${i}`);
}
writeSync(1, `set ${n}\n`);
for (let j = 0; ; j++) {
  writeSync(1, `compacting ${j}\n`);
  index.compact();
  index.set(`extra-${j}`, 'x');
  writeSync(1, `extra ${j}\n`);
}
