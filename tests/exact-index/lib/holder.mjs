// A child process for the writer-lock tests: opens the file index at argv[2]
// for writing, sets key "held-by-child", reports "ready <pid>" on stdout, and
// then waits (a writer that keeps the log open) until killed or until stdin
// closes, when it closes the index and exits.
import { writeSync } from 'node:fs';
import { init } from '../../../dist/index.import.cjs';
import { FileCuckooIndex } from '../../../dist/index-file.mjs';

await init();
let index;
try {
  index = FileCuckooIndex.open(process.argv[2]);
} catch (error) {
  writeSync(1, `failed ${error.code}: ${error.message}\n`);
  process.exit(3);
}
index.set('held-by-child', 'yes');
writeSync(1, `ready ${process.pid}\n`);
process.stdin.resume();
process.stdin.on('end', () => {
  index.close();
  process.exit(0);
});
