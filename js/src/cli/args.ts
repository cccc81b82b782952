/**
 * Command-line parsing: node:util parseArgs in strict mode, with its errors
 * turned into short usage errors, and the validators for option values.
 */
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { type BlocklistFilterType, DEFAULT_FILTER_TYPES, FILTER_TYPES, findFilterType, LIST_FORMATS, type ListFormat } from '../index.js';
import { didYouMean } from './did-you-mean.js';
import { usageError } from './errors.js';

type OptionSpec = NonNullable<ParseArgsConfig['options']>;
type ParsedValues = Record<string, string | boolean | undefined>;

interface ParsedCommand {
  values: ParsedValues;
  positionals: string[];
}

/** `--name <value>` options, one spec per name (no short form). */
export function stringOptions(...names: string[]): OptionSpec {
  return Object.fromEntries(names.map((name) => [name, { type: 'string' }]));
}

/** `--name` switches, one spec per name (no short form). */
export function booleanOptions(...names: string[]): OptionSpec {
  return Object.fromEntries(names.map((name) => [name, { type: 'boolean' }]));
}

/** -o/--output <file> and -q/--quiet, spelled the same in every command that writes a file. */
export const OUTPUT_AND_QUIET: OptionSpec = { output: { type: 'string', short: 'o' }, quiet: { type: 'boolean', short: 'q' } };

/** Parses `argv` for `command`; unknown flags, missing values and extra arguments are usage errors. */
export function parseCommand(
  command: string,
  argv: string[],
  options: OptionSpec,
  allowPositionals: boolean,
): ParsedCommand {
  try {
    const { values, positionals } = parseArgs({ args: argv, options, strict: true, allowPositionals });
    return { values: values as ParsedValues, positionals };
  } catch (error) {
    throw usageError(describeParseError(error, command, argv, Object.keys(options)), command);
  }
}

function describeParseError(error: unknown, command: string, argv: readonly string[], known: readonly string[]): string {
  const code = (error as { code?: string }).code;
  const message = error instanceof Error ? error.message : String(error);
  const quoted = /'([^']*)'/.exec(message)?.[1] ?? '';
  const flag = quoted.split(' ')[0] ?? quoted;
  switch (code) {
    case 'ERR_PARSE_ARGS_UNKNOWN_OPTION':
      return `unknown option ${flag} for '${command}'${didYouMean(flag.replace(/^-+/, '').split('=')[0] ?? '', known, (name) => `--${name}`)}`;
    case 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL':
      return `unexpected argument '${quoted}': '${command}' takes no arguments besides its options`;
    case 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE':
      if (message.includes('does not take an argument')) return `option ${flag} takes no value`;
      if (message.includes('ambiguous')) {
        // parseArgs reads `--capacity -5` as a flag without its value: say what the value is.
        const next = argv[argv.indexOf(flag) + 1];
        if (next !== undefined && /^-\d/.test(next)) {
          return `option ${flag} got '${next}', a negative number: every value it takes is positive`;
        }
        return `option ${flag} needs a value (write ${flag}=<value> for a value starting with '-')`;
      }
      return `option ${flag} needs a value`;
    default:
      return message.split('\n')[0] ?? message;
  }
}

/** What `--type` gives: a registered type, or with --urls 'smallest' (the smallest static type for the list). */
export type BuildType = BlocklistFilterType | typeof DEFAULT_FILTER_TYPES.list;

/**
 * `--type`: any registered type, by name or short alias (registry.ts), or with
 * --urls 'smallest'. Default: the registry's DEFAULT_FILTER_TYPES (`list` for a
 * URL list: the smallest static type for it; `keys` for keys).
 */
export function parseType(value: string | undefined, urls = false): BuildType {
  if (value === undefined) return urls ? DEFAULT_FILTER_TYPES.list : DEFAULT_FILTER_TYPES.keys;
  if (value === DEFAULT_FILTER_TYPES.list) {
    if (urls) return DEFAULT_FILTER_TYPES.list;
    throw usageError(`--type ${value} applies to URL lists (--urls): it builds the list in each static type and keeps the smallest`, 'build');
  }
  const entry = findFilterType(value);
  if (entry === null) {
    const names = FILTER_TYPES.flatMap((type) => [type.name, ...type.aliases]);
    throw usageError(`--type must be one of ${typeChoices()}, got '${value}'${didYouMean(value, names)}`, 'build');
  }
  return entry.name;
}

/** "bloom, blocked (blocked-bloom), ...": what --type takes, from the registry. */
export function typeChoices(): string {
  return FILTER_TYPES.map((entry) => (entry.aliases.length > 0 ? `${entry.aliases[0]} (${entry.name})` : entry.name)).join(
    ', ',
  );
}

export function parseRate(value: string | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  const rate = /^\s*$/.test(value) ? Number.NaN : Number(value);
  if (!(rate > 0 && rate < 1)) {
    throw usageError(`--fpr must be a number between 0 and 1 (exclusive), such as 0.001; got '${value}'`, 'build');
  }
  return rate;
}

const MAX_CAPACITY = 2 ** 40;

export function parseCapacity(value: string | undefined): number | null {
  if (value === undefined) return null;
  const digits = value.replace(/_/g, '');
  const capacity = /^\d+$/.test(digits) ? Number(digits) : Number.NaN;
  if (!(Number.isSafeInteger(capacity) && capacity >= 1 && capacity <= MAX_CAPACITY)) {
    throw usageError(`--capacity must be a whole number from 1 to 2^40, got '${value}'`, 'build');
  }
  return capacity;
}

export function parseSeed(value: string | undefined): number {
  if (value === undefined) return 0;
  const seed = /^\d+$/.test(value) ? Number(value) : Number.NaN;
  if (!Number.isSafeInteger(seed)) {
    throw usageError(`--seed must be a whole number from 0 to 2^53 - 1, got '${value}'`, 'build');
  }
  return seed;
}

export function parseFormat(value: string | undefined): ListFormat {
  if (value === undefined) return 'auto';
  if (!(LIST_FORMATS as readonly string[]).includes(value)) {
    throw usageError(`--format must be one of ${LIST_FORMATS.join(', ')}, got '${value}'`, 'build');
  }
  return value as ListFormat;
}
