// A child process for the out-of-space test: opens the file index at argv[2]
// and sets key-0, key-1, ... (a 200-byte value each) until a set fails for
// lack of space, reporting "set i" after each set returned (with argv[3] ===
// 'buffered': bufferWrites, and "synced i" after each sync() returned, every
// 10 keys). Then reports the failure, whether the index still answers the
// last acknowledged key, and closes.
import { writeSync } from 'node:fs';
import { init } from '../../../dist/index.import.cjs';
import { FileCuckooIndex } from '../../../dist/index-file.mjs';

const say = (line) => writeSync(1, `${line}\n`);
await init();
const buffered = process.argv[3] === 'buffered';
const index = FileCuckooIndex.open(process.argv[2], { snapshotOnClose: false, bufferWrites: buffered });
const value = 'v'.repeat(200);
let acknowledged = -1;
for (let i = 0; i < 1e6; i++) {
  try {
    index.set(`key-${i}`, value);
    if (buffered && i % 10 === 9) {
      index.sync();
      say(`synced ${i}`);
    }
  } catch (error) {
    say(`failed ${error.code} ${error.message.replace(/\n/g, ' ')}`);
    break;
  }
  if (!buffered) say(`set ${i}`);
  acknowledged = i;
}
if (!buffered && acknowledged >= 0) say(`still-has ${index.has(`key-${acknowledged}`)}`);
try {
  index.close();
  say('closed');
} catch (error) {
  say(`close-failed ${error.code}`);
}
