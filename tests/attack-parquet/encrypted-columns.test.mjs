// FAILS on main: a plaintext-footer encrypted file (PAR1 magic, FileMetaData carrying
// encryption_algorithm, column chunks carrying crypto_metadata) keeps its Bloom filters
// encrypted (a length, a nonce, ciphertext and a tag per module). The reader never
// looks at crypto_metadata: it parses the ciphertext as a Thrift header and says
// CORRUPT ("the file is damaged"), where an encrypted footer (PARE) says UNSUPPORTED.
// The same file must get the same answer whichever way it is encrypted.
import { loadParquetModule } from '../parquet/parquet-module.mjs';
import { T, struct } from '../parquet/thrift-writer.mjs';
import { prng, randomInt } from '../helpers/keys.mjs';
import { assemble, columnChunk, fileMetaData, outcomeOf } from './attack-helpers.mjs';

let parquet;
beforeAll(async () => {
  parquet = await loadParquetModule();
});

// An encrypted module as the spec frames it: 4-byte little-endian length, then 12 bytes of
// nonce, the ciphertext and a 16-byte tag (random bytes stand in for all three).
function encryptedModule(random, ciphertextLength) {
  const module = new Uint8Array(4 + 12 + ciphertextLength + 16);
  for (let i = 4; i < module.length; i++) module[i] = randomInt(random, 256);
  new DataView(module.buffer).setUint32(0, module.length - 4, true);
  return module;
}

test('encrypted column chunks in a plaintext footer: UNSUPPORTED, as for an encrypted footer', async () => {
  const random = prng(46);
  const outcomes = {};
  for (let trial = 0; trial < 200; trial++) {
    const body = [...encryptedModule(random, 15), ...encryptedModule(random, 1024)];
    // ColumnChunk field 8: crypto_metadata, ENCRYPTION_WITH_FOOTER_KEY (an empty struct as member 1).
    const plain = columnChunk({ offset: 4, length: body.length });
    const chunk = [...plain.slice(0, -1), 0x5c, ...struct([[1, T.STRUCT, struct([])]]), 0];
    // FileMetaData field 8: encryption_algorithm, AES_GCM_V1 (member 1, an empty struct here).
    const metadata = fileMetaData([[chunk]], { before: [[8, T.STRUCT, struct([[1, T.STRUCT, struct([])]])]] });
    const outcome = await outcomeOf(parquet, () => parquet.readParquetBloomFilters(assemble(body, metadata)));
    outcomes[outcome] = (outcomes[outcome] ?? 0) + 1;
  }
  expect(outcomes).toEqual({ UNSUPPORTED: 200 });
});
