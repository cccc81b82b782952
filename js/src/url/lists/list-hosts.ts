// Plain lists (one host, IP or URL per line) and hosts files (`0.0.0.0 host …`).
import type { ParsedLine } from './parsed-line.js';
import { entries, error, expressionForUrl, hostEntries, isIpLiteral, reasonOf, SKIP } from './list-entry.js';

// Names every stock hosts file maps to loopback/broadcast; they are not
// blocklist entries.
const LOCAL_NAMES = new Set([
  'localhost',
  'localhost.localdomain',
  'local',
  'broadcasthost',
  'ip6-localhost',
  'ip6-loopback',
  'ip6-localnet',
  'ip6-mcastprefix',
  'ip6-allnodes',
  'ip6-allrouters',
  'ip6-allhosts',
  '0.0.0.0',
]);

/**
 * One trimmed, non-blank plain line: a host, IP or URL; `*.host` is a
 * wildcard (the host and every subdomain: what `host/` matches); `#` starts a
 * comment (whole line, or after whitespace).
 */
export function parsePlain(t: string): ParsedLine {
  if (t.startsWith('#')) return SKIP;
  const text = t.replace(/\s+#.*$/, '');
  if (/\s/.test(text)) return error('unexpected whitespace inside the entry');
  try {
    return entries([expressionForUrl(text)]);
  } catch (e) {
    return error(reasonOf(e));
  }
}

/** One trimmed, non-blank hosts-file line: `<ip> <name> [<name>…] [# comment]`. */
export function parseHosts(t: string): ParsedLine {
  if (t.startsWith('#')) return SKIP;
  const hash = t.indexOf('#');
  const fields = (hash >= 0 ? t.slice(0, hash) : t).trim().split(/\s+/);
  if (fields.length < 2) return error('expected "<ip address> <host name> ..."');
  if (!isIpLiteral(fields[0]!)) {
    return error(`first field ${JSON.stringify(fields[0])} is not an IP address`);
  }
  const names = fields.slice(1).filter((n) => !LOCAL_NAMES.has(n.toLowerCase()));
  if (names.length === 0) return SKIP;
  return hostEntries(names);
}
