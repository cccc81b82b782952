/**
 * `query`: one verdict per key or URL, from the command line or stdin.
 *
 *   present<TAB>key | absent<TAB>key                     (keys)
 *   listed<TAB>url<TAB>expression | clear<TAB>url        (--urls)
 *   invalid<TAB>url<TAB>reason                           (a URL that cannot be checked)
 *
 * Keys on the command line are strings (hashed as UTF-8, as the API does);
 * keys read from stdin are bytes, each line exactly as `build` stores it, and
 * are echoed as those bytes. With --urls a line must be UTF-8 text; one that
 * is not is an `invalid` verdict.
 *
 * Exit status: 0 nothing present/listed, 1 something was, 2 an input error
 * (which wins over 1).
 */
import { type AnyFilter, init, urlExpressions } from '../index.js';
import { parseCommand } from './args.js';
import { formatCount } from './describe.js';
import { EXIT_CLEAR, EXIT_ERROR, EXIT_HIT, usageError } from './errors.js';
import { lineBatches } from './lines.js';
import { decodeUtf8 } from './utf8-lines.js';
import { type LoadedFile, loadFilterFile } from './load.js';
import { exitQuietlyOnBrokenPipe, LineWriter } from './output.js';

type Key = string | Uint8Array;
/** A verdict and its output line, as parts (a key's bytes are echoed as read). */
type Verdict = { hit: boolean; invalid: boolean; line: Key[] };

export async function runQuery(argv: string[]): Promise<number> {
  const { values, positionals } = parseCommand('query', argv, { urls: { type: 'boolean' } }, true);
  if (positionals.length === 0) throw usageError('query needs a filter file, then keys (or keys on stdin)', 'query');
  const [file, ...keys] = positionals as [string, ...string[]];
  await init();
  const loaded = await loadFilterFile(file);
  const check = checker(loaded, values.urls === true);
  let hits = 0;
  let invalid = 0;
  exitQuietlyOnBrokenPipe(process.stdout, () => (invalid > 0 ? EXIT_ERROR : hits > 0 ? EXIT_HIT : EXIT_CLEAR));
  const out = new LineWriter(process.stdout);
  const answer = async (key: Key): Promise<void> => {
    const verdict = check(key);
    if (verdict.hit) hits++;
    if (verdict.invalid) invalid++;
    await out.line(...verdict.line);
  };
  try {
    if (keys.length > 0) {
      for (const key of keys) await answer(key);
    } else {
      for await (const batch of lineBatches(process.stdin)) {
        for (const line of batch.lines) if (line.length > 0) await answer(line);
      }
    }
    await out.flush();
  } finally {
    if (loaded.kind === 'url-blocklist') loaded.blocklist.free();
    else loaded.filter.free();
  }
  if (invalid > 0) {
    process.stderr.write(`cuckoo-bloom-wasm: ${formatCount(invalid)} URL(s) could not be checked (see the "invalid" lines)\n`);
    return EXIT_ERROR;
  }
  return hits > 0 ? EXIT_HIT : EXIT_CLEAR;
}

function checker(loaded: LoadedFile, urls: boolean): (key: Key) => Verdict {
  if (loaded.kind === 'url-blocklist') {
    const blocklist = loaded.blocklist;
    return urlChecker((url) => blocklist.match(url));
  }
  const filter = loaded.filter;
  if (urls) return urlChecker((url) => firstExpressionIn(filter, url));
  return (key) => {
    const hit = filter.has(key);
    return { hit, invalid: false, line: [hit ? 'present\t' : 'absent\t', key] };
  };
}

function firstExpressionIn(filter: AnyFilter, url: string): string | null {
  return urlExpressions(url).find((expression) => filter.has(expression)) ?? null;
}

function urlChecker(match: (url: string) => string | null): (key: Key) => Verdict {
  return (key) => {
    const url = typeof key === 'string' ? key : decodeUtf8(key);
    if (url === null) {
      return { hit: false, invalid: true, line: ['invalid\t', key, '\tnot valid UTF-8: a URL must be UTF-8 text'] };
    }
    let expression: string | null;
    try {
      expression = match(url);
    } catch (error) {
      const reason = (error instanceof Error ? error.message : String(error)).replace(/\s+/g, ' ');
      return { hit: false, invalid: true, line: [`invalid\t${url}\t${reason}`] };
    }
    return expression === null
      ? { hit: false, invalid: false, line: [`clear\t${url}`] }
      : { hit: true, invalid: false, line: [`listed\t${url}\t${expression}`] };
  };
}
