export { canonicalizeUrl } from './canonicalize.js';
export { urlExpressions } from './expressions.js';
export { parseListLine, parseList } from './list-parser.js';
export type { ListFormat, ParsedLine, ListParseResult, ListParseError } from './list-parser.js';
