// A child process for the bufferWrites tests: opens the file index at argv[2]
// with bufferWrites, sets key-0 .. key-(argv[3]-1) (value "value-i"), calls
// sync() after key-(argv[4]-1) when argv[4] > 0, and exits without close(),
// as a crash would.
import { init } from '../../../dist/index.import.cjs';
import { FileCuckooIndex } from '../../../dist/index-file.mjs';

await init();
const index = FileCuckooIndex.open(process.argv[2], { bufferWrites: true, snapshotOnClose: false });
const count = Number(process.argv[3]);
const syncAfter = Number(process.argv[4]);
for (let i = 0; i < count; i++) {
  index.set(`key-${i}`, `value-${i}`);
  if (i + 1 === syncAfter) index.sync();
}
process.exit(0);
