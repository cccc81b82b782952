/**
 * The `cuckoo-bloom-wasm` command (bundled to dist/cli.js):
 *   build  keys or a URL list -> filter file (--exact: index log)
 *   info   what a filter file or an index log holds
 *   query  keys or URLs against a filter file or an index log
 *   repair salvage a damaged index log (only the damaged bytes moved aside)
 *   update add and remove lines of a URL blocklist file
 *   diff   the patch from one filter file to another
 *   patch  apply a patch to its base filter file
 * Expected failures print one line, `cuckoo-bloom-wasm: <message>`, and exit 2.
 */
import { FilterError, init } from '../index.js';
import { runBuild } from './build-command/build.js';
import { runDiff } from './updates/diff.js';
import { runPatch } from './updates/patch.js';
import { runUpdate } from './updates/update.js';
import { removeAllTemporary } from './io/cleanup.js';
import { didYouMean } from './did-you-mean.js';
import { CliError, EXIT_CLEAR, EXIT_ERROR, usageError } from './errors.js';
import { runRepair } from './exact/exact-repair.js';
import { runInfo } from './query/info.js';
import { runQuery } from './query/query.js';
import { helpText, isHelpTopic } from './usage.js';
import { packageVersion } from './version.js';

const NAME = 'cuckoo-bloom-wasm';

const COMMANDS: Record<string, (argv: string[]) => Promise<number>> = {
  build: runBuild,
  info: runInfo,
  query: runQuery,
  repair: runRepair,
  update: runUpdate,
  diff: runDiff,
  patch: runPatch,
};

/** True when `--help`/`-h` appears before a `--` terminator. */
function asksForHelp(argv: string[]): boolean {
  for (const arg of argv) {
    if (arg === '--') return false;
    if (arg === '--help' || arg === '-h') return true;
  }
  return false;
}

export async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  // The help texts list types by what the loaded core says they do.
  if (command === undefined || command === '--help' || command === '-h' || command === 'help' || asksForHelp(rest)) await init();
  if (command === undefined || command === '--help' || command === '-h') {
    process.stdout.write(`${helpText()}\n`);
    return EXIT_CLEAR;
  }
  if (command === 'help') {
    const topic = rest[0];
    if (topic !== undefined && !isHelpTopic(topic)) {
      throw usageError(`no help for '${topic}'${didYouMean(topic, Object.keys(COMMANDS))} (commands are ${Object.keys(COMMANDS).join(', ')})`);
    }
    process.stdout.write(`${helpText(topic)}\n`);
    return EXIT_CLEAR;
  }
  if (command === '--version' || command === '-V' || command === 'version') {
    process.stdout.write(`${packageVersion()}\n`);
    return EXIT_CLEAR;
  }
  const run = COMMANDS[command];
  if (run === undefined) {
    throw usageError(
      command.startsWith('-')
        ? `unknown option ${command}`
        : `unknown command '${command}'${didYouMean(command, Object.keys(COMMANDS))} (commands are ${Object.keys(COMMANDS).join(', ')})`,
    );
  }
  if (asksForHelp(rest)) {
    process.stdout.write(`${helpText(command)}\n`);
    return EXIT_CLEAR;
  }
  return run(rest);
}

function errorMessage(error: unknown): string {
  if (error instanceof CliError) {
    const hint = error.helpTopic === null ? '' : ` (see: ${NAME} help${error.helpTopic ? ` ${error.helpTopic}` : ''})`;
    return `${error.message}${hint}`;
  }
  if (error instanceof FilterError) return error.message;
  // A bug, not an expected failure: still one line, the stack only on request.
  const detail = error instanceof Error ? error.message : String(error);
  if (process.env.CUCKOO_BLOOM_WASM_DEBUG) console.error(error);
  return `internal error: ${detail} (set CUCKOO_BLOOM_WASM_DEBUG=1 for details)`;
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    removeAllTemporary();
    process.stderr.write(`${NAME}: ${errorMessage(error).replace(/\s*\n\s*/g, ' ')}\n`);
    process.exitCode = EXIT_ERROR;
  },
);
