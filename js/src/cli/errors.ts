/**
 * Expected failures of the CLI: each becomes one line on stderr
 * (`cuckoo-bloom-wasm: <message>`) and exit status 2, never a stack trace.
 */
export const EXIT_CLEAR = 0;
export const EXIT_HIT = 1;
export const EXIT_ERROR = 2;
/** `build` wrote its output, but the filter is overfilled (estimated rate above 2x the target). */
export const EXIT_OVERFILLED = 3;

export class CliError extends Error {
  /** Also print "see `cuckoo-bloom-wasm help <command>`" after the message. */
  readonly helpTopic: string | null;

  constructor(message: string, helpTopic: string | null = null) {
    super(message);
    this.name = 'CliError';
    this.helpTopic = helpTopic;
  }
}

/** A bad command line: the message is followed by a pointer to the help. */
export function usageError(message: string, command: string | null = null): CliError {
  return new CliError(message, command ?? '');
}

const ERRNO_TEXT: Record<string, string> = {
  ENOENT: 'no such file or directory',
  EACCES: 'permission denied',
  EPERM: 'operation not permitted',
  EISDIR: 'is a directory',
  ENOTDIR: 'a path component is not a directory',
  ENOSPC: 'no space left on device',
  EROFS: 'read-only file system',
  EMFILE: 'too many open files',
  EEXIST: 'already exists',
};

/** "cannot read x.txt: no such file or directory" from a Node fs error. */
export function fileError(action: string, path: string, error: unknown): CliError {
  const code = (error as NodeJS.ErrnoException | null)?.code;
  const reason =
    (code !== undefined && ERRNO_TEXT[code]) || (error instanceof Error ? error.message : String(error));
  return new CliError(`cannot ${action} ${path}: ${reason}`);
}
