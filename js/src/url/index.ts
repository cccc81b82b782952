// The URL layer's public functions. Internally the canonicalizer reports bad
// input with a TypeError; at the package boundary every error is a
// FilterError (INVALID_ARGUMENT), with the original as its cause.
import { FilterError } from '../errors.js';
import { describeValue } from '../keys/keys.js';
import { canonicalizeUrl as canonicalize } from './canonicalize.js';
import { urlExpressions as expressions } from './expressions.js';
import {
  type ListFormat,
  type ListParseOptions,
  type ListParseResult,
  ListLineParser as LineParser,
  type ParsedLine,
  parseList as parseListText,
} from './lists/list-parser.js';

export type { ListFormat, ParsedLine, ListParseResult, ListParseError, ListParseWarning, ListParseOptions } from './lists/list-parser.js';
export { LIST_FORMATS } from './lists/list-parser.js';
export type { ExpressionDepth } from './expressions.js';
export type { NeverMatchReport } from './never-match.js';
export type { TypeCandidate, TypeChoice } from './smallest-type.js';

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

/**
 * Parses the lines of one list in order (see `ListFormat`), keeping what a
 * line needs of those before it (an RPZ file's `$ORIGIN`).
 */
export class ListLineParser {
  readonly #parser: LineParser;

  /** @throws FilterError `INVALID_ARGUMENT` for an unknown format. */
  constructor(format: ListFormat = 'auto', options: ListParseOptions = {}) {
    this.#parser = asFilterError(() => new LineParser(format, options));
  }

  /** The syntax it reads. */
  get format(): ListFormat {
    return this.#parser.format;
  }

  /** The next line of the list. @throws FilterError `INVALID_ARGUMENT` for a non-string. */
  parse(line: string): ParsedLine {
    requireText(line, 'a list line');
    return this.#parser.parse(line);
  }
}

/**
 * Parses one list line on its own (any `ListFormat`; an RPZ line relative to
 * an `$ORIGIN` needs a `ListLineParser` for the whole list).
 * @throws FilterError `INVALID_ARGUMENT` for a non-string or an unknown format.
 */
export function parseListLine(line: string, format: ListFormat = 'auto', options: ListParseOptions = {}): ParsedLine {
  requireText(line, 'a list line');
  return new ListLineParser(format, options).parse(line);
}

/** Parses a whole list. @throws FilterError `INVALID_ARGUMENT` for a non-string or an unknown format. */
export function parseList(text: string, format: ListFormat = 'auto', options: ListParseOptions = {}): ListParseResult {
  requireText(text, 'list text');
  return asFilterError(() => parseListText(text, format, options));
}
