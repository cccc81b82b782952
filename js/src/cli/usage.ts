/** The help texts (`--help`, `help [command]`, no arguments). */

import { typeChoices } from './args.js';

const NAME = 'cuckoo-bloom-wasm';

const BUILD = `Usage: ${NAME} build --input <file|-> --output <file> [options]

Builds a filter from a file (or stdin with "-"), one key per line, and writes it
to --output. The input is streamed: it is never held in memory as a whole.

Options:
  -i, --input <file|->   the keys or list to read; "-" reads stdin (required)
  -o, --output <file>    the filter file to write (required); it is written to
                         <file>.tmp-<pid> and renamed, so a failed build leaves
                         no file behind
  -t, --type <type>      the filter type (default bloom; with --urls, fuse):
                         ${typeChoices()}
  --fpr <rate>           target false-positive rate in (0, 1); default 0.01,
                         or 0.001 with --urls (per URL expression checked)
  -n, --capacity <n>     keys to size the filter for (not for fuse, a static
                         filter built from all keys at the end); default:
                         counted from the input file in a first pass. Stdin
                         without --capacity builds a growing filter instead
                         (scalable-bloom for bloom and blocked-bloom,
                         scalable-cuckoo for cuckoo and counting-bloom, from
                         1,000 keys), which stays under --fpr however many
                         keys arrive
  --seed <n>             hash seed (default 0)
  --urls                 read a URL blocklist instead of keys: host, URL,
                         hosts-file and Adblock/uBlock lines (||host^,
                         ||host/path^) become Safe Browsing expressions
  --format <format>      with --urls: auto (default, decided per line), plain,
                         hosts or adblock
  --json                 print the summary as JSON
  -q, --quiet            print no summary (unparseable lines still go to stderr)
  --force                build even from input that looks binary, or that
                         holds no key (an empty filter)

Without --urls every non-empty line is a key, stored as its bytes exactly (a
trailing "\\r" and a UTF-8 byte-order mark at the start are removed; any
other bytes, UTF-8 or not, are kept). Keys the filter already reports present
(repeats) are not added again, except in filters with removal (counting,
cuckoo), which store every key of the input.
With --urls, lines are UTF-8 text: blank lines and comments are skipped, and
lines that cannot be read as a host or URL, or are not valid UTF-8, are listed
in the summary with their line numbers (the first 10, and how many more),
never silently dropped; lines that are not UTF-8 also get a warning on stderr.
Input that looks binary (a NUL byte, or more than 5% control bytes other than
tab, CR, LF, VT, FF and ESC, in its first 64 KiB) and input with no key or
list entry are refused (exit 2) unless --force is given. A line longer than
64 MiB is an error (exit 2) naming the line.
A progress bar appears on stderr when it is a terminal and the input is long
(over 100,000 lines or 4 MiB).

Exit status: 0 built, 2 usage or input error (including binary or empty input,
a line over 64 MiB, and a cuckoo filter that ran out of room: give a larger
--capacity, or none to size it from the input),
3 built but overfilled: the estimated false-positive rate is more than twice
the target (more keys than --capacity); the file is written and a warning
printed on stderr.`;

const INFO = `Usage: ${NAME} info <file> [--json]

Shows what a filter file holds: its type and parameters, keys stored, capacity,
size, bits per key, target and estimated false-positive rates, and whether it
reads back intact (the checksum and structure are verified: "checksum ok").
For a URL blocklist it shows the number of entries and the nested filter.

Options:
  --json                 print a JSON object instead of text

Exit status: 0 the file is intact, 2 it is missing, corrupt or not a filter.`;

const QUERY = `Usage: ${NAME} query <file> [key...] [--urls]

Tests keys against a filter file. With no keys on the command line, reads them
from stdin, one per line (empty lines are ignored). Put "--" before keys that
start with "-". Keys on the command line are text (hashed as UTF-8); keys read
from stdin are bytes, matched exactly as build stored its lines (so a Latin-1
key is found) and echoed unchanged. With --urls, stdin lines must be UTF-8.

Output, one line per key, tab-separated:
  present<TAB>key        the key may be in the set (wrong at about the filter's
                         false-positive rate)
  absent<TAB>key         the key is certainly not in the set
With --urls (implied when the file is a URL blocklist), each key is a URL checked
against the URL's Safe Browsing expressions (host suffixes x path prefixes):
  listed<TAB>url<TAB>expression   the expression that matched (possibly listed)
  clear<TAB>url                   certainly not listed
  invalid<TAB>url<TAB>reason      not a URL that can be checked (or not UTF-8)

Options:
  --urls                 treat keys as URLs; with a plain filter, its keys are
                         taken to be expressions such as "evil.example/"

Exit status: 0 no key present/listed, 1 at least one present/listed,
2 usage or input error (a missing or corrupt file, an invalid URL).`;

const MAIN = `Usage: ${NAME} <command> [options]

Bloom, blocked Bloom, counting Bloom and cuckoo filters (C++ compiled to
WebAssembly), and URL blocklists made from them.

Commands:
  build    build a filter file from keys or a URL blocklist (streamed)
  info     show a filter file's type, parameters, size and error rates
  query    test keys or URLs against a filter file
  help     show this help, or a command's: help build

Examples:
  ${NAME} build --input words.txt --output words.filter --fpr 0.001
  ${NAME} build --type cuckoo --capacity 1000000 --input - --output ids.filter < ids.txt
  ${NAME} query words.filter apple banana
  ${NAME} build --urls --type blocked --input urlhaus-filter.txt --output urlhaus.filter
  ${NAME} query urlhaus.filter --urls https://evil.example/dl/x.exe
  cat urls.txt | ${NAME} query urlhaus.filter --urls
  ${NAME} info urlhaus.filter --json

Options:
  -h, --help       show help (also after a command)
  -V, --version    print the version

Exit status: 0 success (query: nothing found), 1 query found a key or URL,
2 usage or input error (one line on stderr: "${NAME}: <message>").`;

const TOPICS: Record<string, string> = { build: BUILD, info: INFO, query: QUERY };

/** The help for `topic` (a command name), or the main help. */
export function helpText(topic?: string): string {
  return (topic !== undefined ? TOPICS[topic] : undefined) ?? MAIN;
}

export function isHelpTopic(topic: string): boolean {
  return topic in TOPICS;
}
