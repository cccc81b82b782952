// A child process for the snapshot-on-close tests: opens the file index at
// argv[2], sets keys argv[3] .. argv[4]-1 (value "value-i"), then exits
// without close() — as a crash would, after every set returned — so no
// snapshot is saved for these records.
import { init } from '../../../dist/index.import.cjs';
import { FileCuckooIndex } from '../../../dist/index-file.mjs';

await init();
const index = FileCuckooIndex.open(process.argv[2]);
for (let i = Number(process.argv[3]); i < Number(process.argv[4]); i++) index.set(`key-${i}`, `value-${i}`);
process.exit(0);
