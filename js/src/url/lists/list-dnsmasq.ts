// dnsmasq configuration lines that block domains:
//   address=/ads.example/tracker.example/0.0.0.0   (also ::, 127.0.0.1, #, or nothing)
//   server=/ads.example/                           (no upstream: answered locally, NXDOMAIN)
//   local=/ads.example/
// Each names one or more domains, and dnsmasq applies it to the domain and
// every subdomain: exactly what a `host/` expression matches.
import type { ParsedLine } from './parsed-line.js';
import { error, hostEntries, isIpLiteral, SKIP } from './list-entry.js';

/** The line is a dnsmasq domain option (for auto-detection). */
export const DNSMASQ_LINE = /^(?:address|server|local)=\//;

/** One trimmed, non-blank dnsmasq line. */
export function parseDnsmasq(t: string): ParsedLine {
  if (t.startsWith('#')) return SKIP;
  const text = t.replace(/\s+#.*$/, '');
  const m = /^([a-z-]+)=(.*)$/.exec(text);
  if (m === null) return error('expected a dnsmasq option such as address=/host/0.0.0.0');
  const [, option, value] = m as unknown as [string, string, string];
  if (option !== 'address' && option !== 'server' && option !== 'local') {
    return error(`dnsmasq option "${option}" does not block a domain (address=, server= and local= do)`);
  }
  if (!value.startsWith('/')) return error(`${option}= names no domain: expected ${option}=/host/…`);
  const parts = value.split('/');
  const target = parts[parts.length - 1]!;
  const domains = parts.slice(1, -1);
  if (domains.length === 0) return error(`${option}= names no domain: expected ${option}=/host/…`);
  if (domains.some((d) => d === '')) return error('empty domain between "/"');
  if (domains.includes('#')) return error('"#" stands for every domain, which cannot be a blocklist entry');
  if (option === 'address') {
    // Sinkhole addresses, NXDOMAIN (nothing) or NODATA ("#"): every form answers for the domain itself.
    if (target !== '' && target !== '#' && !isIpLiteral(target)) {
      return error(`address=/…/${target}: "${target}" is not an IP address`);
    }
  } else if (target !== '') {
    // server=/host/1.2.3.4 forwards the domain elsewhere, and "#" to the usual servers: no block.
    return error(`${option}=/…/${target} forwards the domain to ${target === '#' ? 'the default servers' : target}: it does not block it`);
  }
  return hostEntries(domains);
}
