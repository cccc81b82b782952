/**
 * Reading a filter file (plain filter or URL blocklist) for `info` and
 * `query`. Every way a file can be unusable becomes one CliError naming the
 * file and the problem. The bytes are read by filter-input.ts: a regular
 * file (or stdin, `-`), bounded by the length its header declares.
 */
import { type AnyFilter, deserialize, FilterError, serializedType, UrlBlocklist } from '../../index.js';
import { CliError } from '../errors.js';
import { readFilterBytes } from './filter-input.js';

export type LoadedFile =
  | { kind: 'filter'; filter: AnyFilter; fileBytes: number }
  | { kind: 'url-blocklist'; blocklist: UrlBlocklist; filter: AnyFilter; fileBytes: number };

/** Reads and fully validates (structure and checksum) the filter in `path` (`-`: stdin), or its bytes already read. */
export async function loadFilterFile(path: string, alreadyRead?: Uint8Array): Promise<LoadedFile> {
  const bytes = alreadyRead ?? (await readFilterBytes(path));
  const name = path === '-' ? 'stdin' : path;
  try {
    if (serializedType(bytes) === 'url-blocklist') {
      const blocklist = UrlBlocklist.deserialize(bytes);
      return { kind: 'url-blocklist', blocklist, filter: blocklist.filter, fileBytes: bytes.length };
    }
    return { kind: 'filter', filter: deserialize(bytes), fileBytes: bytes.length };
  } catch (error) {
    if (error instanceof FilterError) throw new CliError(`${name}: ${describeReadError(error)}`);
    throw error;
  }
}

function describeReadError(error: FilterError): string {
  switch (error.code) {
    case 'CORRUPT':
      return `corrupt filter file: ${error.message}`;
    case 'UNSUPPORTED_VERSION':
      return `unsupported filter file: ${error.message}`;
    case 'WRONG_TYPE':
      return `unsupported filter type: ${error.message}`;
    default:
      return error.message;
  }
}
