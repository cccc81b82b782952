/**
 * cuckoo-bloom-wasm/index-file (Node only): a CuckooIndex over an append-only
 * log file that survives restarts and crashes. See https://github.com/cuckoo-bloom-wasm/cuckoo-bloom-wasm/blob/main/docs/EXACT-INDEX.md.
 *
 * @module cuckoo-bloom-wasm/index-file
 */
export { FileCuckooIndex, type FileCuckooIndexOptions, type OpenReport, type RepairOptions, type RepairReport } from './file-index.js';
export type { MovedRange } from './repair.js';
export type { FileStoreOptions, LogVersion } from './file-store.js';
// The main entry's init(): this entry runs on its module (one init() serves both).
export { init, isInitialized } from '../../index.js';
