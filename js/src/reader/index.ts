/**
 * `cuckoo-bloom-wasm/reader`: read shipped filters and URL blocklists, answer
 * has / match, nothing else, over core.reader.wasm (bindings/reader.cpp) — the
 * smallest download for pages that only check. Everything it reads, the main
 * entry (or the CLI) wrote; everything it answers, the main entry answers the same.
 *
 * @module cuckoo-bloom-wasm/reader
 */
export { init, isInitialized, type InitOptions } from '../runtime/init.js';
export type { WasmSource } from '../runtime/wasm-source.js';
export { FilterError, type FilterErrorCode } from '../errors.js';
export type { Key } from '../keys/keys.js';
export type { UrlCheck, UrlVerdict } from '../url/check-url.js';
export type { ExpressionDepth } from '../url/expressions.js';
export { canonicalizeUrl, urlExpressions } from '../url/index.js';
export { FilterReader } from './filter-reader.js';
export { UrlBlocklistReader } from './url-blocklist-reader.js';
export { confirmationPartName, type ConfirmationPartsStatus, type FetchConfirmationPart } from '../url/confirmation-parts.js';
export { applyPatch } from '../patch/apply-patch.js';
