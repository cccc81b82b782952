/** The help texts (`--help`, `help [command]`, no arguments). */

import { DEFAULT_FILTER_TYPES, FILTER_TYPES, type FilterTypeEntry } from '../index.js';
import { typeChoices } from './args.js';

const NAME = 'cuckoo-bloom-wasm';

const BUILD = (): string => `Usage: ${NAME} build --input <file|-> --output <file> [options]
       ${NAME} build --exact --input <file|-> --output <log> [--urls] [options]

Builds a filter from a file (or stdin with "-"), one key per line, and writes it
to --output. The input is streamed: it is never held in memory as a whole.
With --exact it writes an exact index log instead (see below).

Options:
  -i, --input <file|->   the keys or list to read; "-" reads stdin (required)
  -o, --output <file>    the filter file to write (required); it is written to
                         <file>.tmp-<pid> and renamed, so a failed build leaves
                         no file behind
${optionText('  -t, --type <type>', `the filter type (default ${DEFAULT_FILTER_TYPES.keys}; with --urls, ${DEFAULT_FILTER_TYPES.list}: the list is built as ${list(FILTER_TYPES.filter((entry) => entry.isStatic && !entry.forgets))} and the fewest bytes kept):`)}
                         ${typeChoices()}
  --fpr <rate>           target false-positive rate in (0, 1); default 0.01,
                         or 0.001 with --urls, where it is per URL: the
                         filter gets the per-lookup rate that gives it for
                         the most lookups a URL makes at the list's depths
${optionText('  -n, --capacity <n>', `keys to size the filter for (not for ${list(FILTER_TYPES.filter((entry) => entry.isStatic))}, static: built from all keys at the end); default: counted from the input file in a first pass. Stdin without --capacity builds a growing filter instead (${growingStandIns()}), which stays under --fpr however many keys arrive`)}
  --seed <n>             hash seed (default 0)
${optionText('  --urls', `read a URL blocklist instead of keys: host, URL, *.host, hosts-file, Adblock/uBlock (||host^, ||host/path^), dnsmasq, Unbound and RPZ lines become Safe Browsing expressions; a type that forgets its keys (${list(FILTER_TYPES.filter((entry) => entry.forgets))}) is refused`)}
  --format <format>      with --urls: auto (default, decided per line), plain,
                         hosts, adblock, dnsmasq, unbound or rpz
  --never-match <file>   with --urls: hosts and URLs (one a line) that must
                         never be a hit unless listed; repeatable. Every public
                         suffix of the Public Suffix List is always guarded so
                         (co.jp, now.sh): their expressions that the filter
                         reports go into an exception set stored in the file
  --json                 print the summary as JSON
  -q, --quiet            print no summary (unparseable lines still go to stderr)
  --force                build even from input that looks binary, or that
                         holds no key (an empty filter)
  --exact                write an exact index log (see below) instead of a
                         filter; --type, --fpr, --capacity and --seed do not
                         apply to it and are refused

Without --urls every non-empty line is a key, stored as its bytes exactly (a
trailing "\\r" and a UTF-8 byte-order mark at the start are removed; any
other bytes, UTF-8 or not, are kept). Keys the filter already reports present
${wrap(`(repeats) are not added again, except in filters with removal (${list(FILTER_TYPES.filter((entry) => entry.supportsRemove))}), which store every key of the input.`)}
With --urls, lines are UTF-8 text: blank lines and comments are skipped, and
lines that cannot be read as a host or URL, or are not valid UTF-8, are listed
in the summary with their line numbers (the first 10, and how many more),
never silently dropped; lines that are not UTF-8 also get a warning on stderr.
Entries for a single-label host (matched only whole) or a public suffix
(co.jp: every site under it) are stored with a warning on stderr (a count and
the first 10 with their line numbers).
Input that looks binary (a NUL byte, or more than 5% control bytes other than
tab, CR, LF, VT, FF and ESC, in its first 64 KiB) and input with no key or
list entry are refused (exit 2) unless --force is given. A line longer than
64 MiB is an error (exit 2) naming the line.
A progress bar appears on stderr when it is a terminal and the input is long
(over 100,000 lines or 4 MiB).

With --exact the same keys (or, with --urls, the same list expressions) go
into an exact index log (a FileCuckooIndex: cuckoo-bloom-wasm/index-file): one
record per distinct key in an append-only file, which "query" answers with no
false positives. Its table is saved beside it as <log>.snapshot, so opening the
log loads it instead of replaying every record. A file is read twice: once
to count its keys, so the table is sized once and never rebuilt (stdin is read
once and the table grows). Both are written under temporary names and
renamed, so a failed build leaves no file. The summary
gives the keys stored, duplicates skipped (exact counts), the log's bytes and
the memory its table takes when open.

Exit status: 0 built, 2 usage or input error (including binary or empty input,
a line over 64 MiB, and a cuckoo filter that ran out of room: give a larger
--capacity, or none to size it from the input),
3 built but overfilled: the estimated false-positive rate is more than twice
the target (more keys than --capacity); the file is written and a warning
printed on stderr.`;

const INFO = `Usage: ${NAME} info <file|-> [--json]

Shows what a filter file holds: its type and parameters, keys stored, capacity,
size, bits per key, target and estimated false-positive rates, and whether it
reads back intact (the checksum and structure are verified: "checksum ok").
For a URL blocklist it shows the number of entries and the nested filter.

For a URL blocklist's companion (info <filter>.confirm, written by build --urls)
it shows how many expressions it holds, its size and bits per expression, the
blocklist bytes it was built for, and whether the filter beside it is those
bytes (query refuses any other pair).

For an index log (build --exact) it shows that it is an exact index, what its
keys are (lines, or URL expressions), its records, live keys and dead records,
the log's bytes, the memory its table takes, and whether <log>.snapshot is
there and valid (matches the log, so opening loads it). Opening a log checks
every record it replays and never writes to the file; an unfinished last record
(a write cut short, or one still in progress) is ignored and reported. A damaged
record is an error (exit 2) naming its byte offset: see "repair".

The file must be a regular file (a device, FIFO, directory or socket is
refused without being read); a filter file must be exactly as long as its
header declares, and is read no further. "-" reads a filter (not an index log)
piped or redirected into stdin, up to its declared length.

Options:
  --json                 print a JSON object instead of text

Exit status: 0 the file is intact, 2 it is missing, corrupt, or neither a
filter nor an index log.`;

const QUERY = `Usage: ${NAME} query <file> [key...] [--urls] [--exact] [--confirm FILE] [--delta FILE]... [--json]
       ${NAME} query <filter> --index <log> [key...] [--urls]

Tests keys against a filter file, or an index log made by build --exact (told
apart by its first bytes). With no keys on the command line, reads them
from stdin, one per line (empty lines are ignored). Put "--" before keys that
start with "-". Keys on the command line are text (hashed as UTF-8); keys read
from stdin are bytes, matched exactly as build stored its lines (so a Latin-1
key is found) and echoed unchanged. With --urls, stdin lines must be UTF-8.

The file must be a regular file, read as info reads it; "-" reads a filter from
stdin (the keys must then be arguments).

Output, one line per key, tab-separated:
  present<TAB>key        the key may be in the set (wrong at about the filter's
                         false-positive rate); from an index log: certainly in it
  absent<TAB>key         the key is certainly not in the set
With --urls (implied when the file is a URL blocklist), each key is a URL checked
against the URL's Safe Browsing expressions (host suffixes x path prefixes):
  listed<TAB>url<TAB>expression   confirmed by the list's exact companion
                                  (<filter>.confirm, or --confirm FILE)
  possible<TAB>url<TAB>expression the filter's "maybe", with no companion to confirm it
  clear<TAB>url                   certainly not listed
  invalid<TAB>url<TAB>reason      not a URL that can be checked (or not UTF-8)

With --urls (implied by a log built with --urls), a URL is listed in an index
log when one of its expressions is in it, with every host suffix and
directory prefix checked: the log holds the list's entries exactly.

Options:
  --urls                 treat keys as URLs; with a plain filter or a log of
                         plain keys, its keys are taken to be expressions such
                         as "evil.example/"
  --exact                the file must be an index log (answers are exact);
                         a filter file is then a usage error. Without it an
                         index log is recognised all the same
  --index <log>          check the filter's "maybe"s against an index log:
                         a key is present (a URL listed) only when the log
                         confirms it; at the end stderr says how many "maybe"s
                         the log found absent (false positives caught)
  --confirm <file>       a URL blocklist's exact companion (default:
                         <filter>.confirm when it exists); damaged or built
                         for another filter: exit 2
  --delta <file>         a list delta (update/diff --output NAME.delta) to
                         apply first; repeat it for a chain, oldest first. A
                         delta of another version (another base, out of
                         order, given twice) or damaged: exit 2
  --json                 URL blocklists: one JSON object per URL
                         {"url","verdict","match","confirmedBy"}

A log is opened read-only: an unfinished last record (a write cut short, or one
a running writer has not finished) is ignored, with a warning on stderr, and
left in the file; every whole record is answered. A damaged record is an error
(exit 2) naming its byte offset, never a shorter log: see "repair".

Exit status: 0 no key present, listed or possible, 1 at least one present,
listed or possible (even when another URL was invalid: a hit wins), 2 usage or
input error (a missing or corrupt file or companion; an invalid URL when none
was listed).`;

const REPAIR = `Usage: ${NAME} repair <log> [--urls | --keys] [--json]

Salvages a damaged index log (build --exact), explicitly: opening a log never
drops more than an unfinished last write, and reports damage as an error
naming its byte offset instead. Repair keeps every whole record: at the
damage it resumes at the next whole record, and moves only the damaged bytes,
unchanged, to a new file beside the log: <log>.damaged-at-<offset> (".2",
".3", ... when that name is taken; nothing is ever overwritten or deleted).
The moved bytes are written and flushed to the disk before the log changes,
so a crash during repair loses nothing. The log then opens, with every whole
record (records after the damage re-chained). <log>.snapshot is deleted. A
flipped bit in the header's log id moves nothing: the records are re-chained.

When the first record is damaged, repair cannot tell whether the log held URL
expressions (build --exact --urls marks it there) or plain keys, and refuses
(exit 2) until told: --urls writes the marker back, --keys does not.

Repair takes the log's writer lock: it is refused while a writer has the log
open (the error names that process).

Options:
  --urls                 its first record is damaged; the log held URL expressions
  --keys                 its first record is damaged; the log held plain keys
  --json                 print a JSON object instead of text

Exit status: 0 the log was whole or was repaired, 2 usage or input error (a
missing file, not an index log, a log locked by a writer, a damaged first
record without --urls or --keys, an I/O error).`;

const UPDATE = (): string => `Usage: ${NAME} update <filter> [--add FILE] [--remove FILE] [--list FILE]
         [--format <format>] [--output OUT] [--after LAST.delta] [--json]

With --output NAME.delta (any type, binary fuse included): writes the list
delta from the version --list holds to the next (the filter and its
companion stay as built; clients apply the deltas in order). --after names
the last delta of the chain; past 25% of the base it says to rebuild.

Otherwise adds and removes lines of a URL blocklist file (build --urls), read as build
${wrap(`reads a list; removals first. Removal needs a type with removal (${list(FILTER_TYPES.filter((entry) => entry.supportsRemove))}) and --list FILE: the list the filter holds, since removing an entry it never held could remove another's. So does a filter with <filter>.confirm, which is rewritten for the new bytes.`)} Nothing is
written unless every line applies (else exit 2, naming file:line). For a
cuckoo list shipped by patch, diff the file before and after update.

Options:
  --add <file>, --remove <file>   list lines to add, to remove
  --list <file>          the list the filter holds (its build input + adds)
  --after <file>         with NAME.delta: the last delta of the chain
  --format <format>      as build's (default auto)
  -o, --output <file>    write here instead of over <filter> (atomically)
  --json                 print the summary as JSON
  -q, --quiet            print no summary

Exit status: 0 updated, 2 usage or input error (nothing written).`;

const DIFF = `Usage: ${NAME} diff <old> <new> --output <patch> [--json]
       ${NAME} diff <old-list> <new-list> --base <filter> --output NAME.delta [--after LAST.delta]

Writes the patch that turns filter file <old> into <new>: "patch" applies it
to <old> only. Its size follows the change: for Bloom and blocked Bloom diff
two fresh builds with the same options; for cuckoo, the file before and
after "update". It says why on stderr when the patch passes half of <new>.
With --output NAME.delta: the list delta between two versions of the list of
URL blocklist <filter> (any type; see update).

Options:
  -o, --output <file>    the patch to write (required; NAME.delta: a list delta)
  --base <file>, --after <file>   with NAME.delta: the base filter, the last delta
  --format <format>      with NAME.delta: the lists' syntax (default auto)
  --json                 print {"patch","bytes","targetBytes","percentOfTarget"}
  -q, --quiet            print no summary

Exit status: 0 written, 2 usage or input error.`;

const PATCH = `Usage: ${NAME} patch <base> <patch> --output <file>

Applies a patch from "diff" to its exact base (length and checksum) and
writes the new filter once it matches the target's checksum and CRC-32.

Options:
  -o, --output <file>    the filter to write (required; may be <base>)
  -q, --quiet            print no summary

Exit status: 0 written, 2 usage or input error (another base, a damaged
patch: fetch the whole filter instead).`;

/** A registry label in running text: "Blocked Bloom" → "blocked Bloom" (Bloom is a person's name). */
function inSentence(label: string): string {
  return label
    .split(' ')
    .map((word) => (word === 'Bloom' ? word : word.toLowerCase()))
    .join(' ');
}

/** Words filled into lines of at most `width` characters. */
function wrap(text: string, width = 74): string {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(' ')) {
    if (line !== '' && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else {
      line = line === '' ? word : `${line} ${word}`;
    }
  }
  return [...lines, line].join('\n');
}

/** The column an option's description starts at. */
const OPTION_INDENT = ' '.repeat(25);

/** An option and its description, wrapped to the description column. */
function optionText(option: string, description: string): string {
  const lines = wrap(description, 76 - OPTION_INDENT.length).split('\n');
  const first = option.length < OPTION_INDENT.length ? `${option.padEnd(OPTION_INDENT.length)}${lines[0]}` : `${option}\n${OPTION_INDENT}${lines[0]}`;
  return [first, ...lines.slice(1).map((line) => `${OPTION_INDENT}${line}`)].join('\n');
}

/** "cuckoo, counting (counting-bloom) and expandable": types as --type takes them (the short alias first). */
function list(entries: readonly FilterTypeEntry[]): string {
  const names = entries.map((entry) => entry.aliases[0] ?? entry.name);
  return names.length <= 1 ? (names[0] ?? 'none') : `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`;
}

/**
 * "scalable-bloom for bloom and blocked-bloom, ...; expandable, ... grow themselves; from 1,000 keys":
 * each growing type and the types it stands in for (the registry's growingStandIn and defaultCapacity).
 */
function growingStandIns(): string {
  const growing = FILTER_TYPES.filter((entry) => entry.growth !== 'none');
  const standsIn = growing
    .map((standIn) => [standIn, FILTER_TYPES.filter((entry) => entry.growth === 'none' && entry.growingStandIn === standIn.name)] as const)
    .filter(([, others]) => others.length > 0)
    .map(([standIn, others]) => `${standIn.name} for ${others.map((entry) => entry.name).join(' and ')}`);
  const capacities = [...new Set(growing.map((entry) => entry.defaultCapacity))];
  const from = capacities.length === 1 ? `, from ${capacities[0]!.toLocaleString('en-US')} keys` : '';
  return `${standsIn.join(', ')}; ${list(growing)} grow themselves${from}`;
}

/** "Bloom, blocked Bloom, ... and expandable filters ...": every registered type, in the registry's order. */
function whatItMakes(): string {
  const labels = FILTER_TYPES.map((entry) => inSentence(entry.label));
  const list = `${labels.slice(0, -1).join(', ')} and ${labels.at(-1)}`;
  return wrap(`${list[0]!.toUpperCase()}${list.slice(1)} filters (C++ compiled to WebAssembly), URL blocklists made from them, and exact index logs.`);
}

const mainHelp = (): string => `Usage: ${NAME} <command> [options]

${whatItMakes()}

Commands:
  build    build a filter file from keys or a URL blocklist (streamed), or
           with --exact an exact index log
  info     show a filter file's type, parameters, size and error rates, or
           an index log's keys, records and sizes
  query    test keys or URLs against a filter file or an index log
  repair   salvage a damaged index log: keep every whole record, move only
           the damaged bytes aside to a file beside it
  update   add and remove lines of a URL blocklist file
  diff     write the patch from one filter file to another
  patch    apply a patch to its base filter file
  help     show this help, or a command's: help build

Examples:
  ${NAME} build --input words.txt --output words.filter --fpr 0.001
  ${NAME} build --type cuckoo --capacity 1000000 --input - --output ids.filter < ids.txt
  ${NAME} query words.filter apple banana
  ${NAME} build --urls --type blocked --input urlhaus-filter.txt --output urlhaus.filter
  ${NAME} query urlhaus.filter --urls https://evil.example/dl/x.exe
  cat urls.txt | ${NAME} query urlhaus.filter --urls
  ${NAME} info urlhaus.filter --json
  ${NAME} build --exact --input words.txt --output words.log
  ${NAME} query words.log --exact apple banana
  ${NAME} query words.filter --index words.log apple banana
  ${NAME} diff old.filter new.filter --output list.patch
  ${NAME} patch old.filter list.patch --output new.filter

Options:
  -h, --help       show help (also after a command)
  -V, --version    print the version

Exit status: 0 success (query: nothing found), 1 query found a key or URL,
2 usage or input error (one line on stderr: "${NAME}: <message>").`;

const TOPICS: Record<string, () => string> = {
  build: BUILD,
  info: () => INFO,
  query: () => QUERY,
  repair: () => REPAIR,
  update: UPDATE,
  diff: () => DIFF,
  patch: () => PATCH,
};

/** The help for `topic` (a command name), or the main help. Its type lists read the registry: call after `init()`. */
export function helpText(topic?: string): string {
  return (topic !== undefined ? TOPICS[topic]?.() : undefined) ?? mainHelp();
}

export function isHelpTopic(topic: string): boolean {
  return topic in TOPICS;
}
