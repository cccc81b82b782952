// The URL layer's public functions. Internally the canonicalizer reports bad
// input with a TypeError; at the package boundary every error is a
// FilterError (INVALID_ARGUMENT), with the original as its cause.
import { FilterError } from '../errors.js';
import { describeValue } from '../keys/keys.js';
import { canonicalizeUrl as canonicalize } from './canonicalize.js';
import { urlExpressions as expressions } from './expressions.js';
import {
  type ListFormat,
  type ListParseResult,
  type ParsedLine,
  parseList as parseListText,
  parseListLine as parseOneLine,
} from './list-parser.js';

export type { ListFormat, ParsedLine, ListParseResult, ListParseError } from './list-parser.js';
export type { ExpressionDepth } from './expressions.js';

function asFilterError<T>(run: () => T): T {
  try {
    return run();
  } catch (error) {
    if (error instanceof TypeError) throw new FilterError('INVALID_ARGUMENT', error.message, { cause: error });
    throw error;
  }
}

function requireText(value: unknown, what: string): asserts value is string {
  if (typeof value !== 'string') {
    throw new FilterError('INVALID_ARGUMENT', `${what} must be a string, got ${describeValue(value)}`);
  }
}

/**
 * The Safe Browsing canonical form of a URL (on top of the WHATWG URL parser).
 * @throws FilterError `INVALID_ARGUMENT` for a non-string or a URL that cannot be canonicalized.
 */
export function canonicalizeUrl(input: string): string {
  return asFilterError(() => canonicalize(input));
}

/**
 * The host-suffix × path-prefix expressions a URL is checked against.
 * @throws FilterError `INVALID_ARGUMENT` as `canonicalizeUrl`.
 */
export function urlExpressions(input: string): string[] {
  return asFilterError(() => expressions(input));
}

/** Parses one list line (plain, hosts-file or Adblock syntax). @throws FilterError `INVALID_ARGUMENT` for a non-string. */
export function parseListLine(line: string, format: ListFormat = 'auto'): ParsedLine {
  requireText(line, 'a list line');
  return parseOneLine(line, format);
}

/** Parses a whole list. @throws FilterError `INVALID_ARGUMENT` for a non-string. */
export function parseList(text: string, format: ListFormat = 'auto'): ListParseResult {
  requireText(text, 'list text');
  return parseListText(text, format);
}
