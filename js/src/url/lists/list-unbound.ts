// Unbound configuration lines that block domains:
//   local-zone: "ads.example" always_nxdomain     (the zone and every name under it)
//   local-data: "ads.example A 0.0.0.0"           (a sinkhole answer for the name)
// A blocking zone type applies to the name and every subdomain, exactly what a
// `host/` expression matches. local-data answers for the name itself; stored
// as `host/` it also lists its subdomains, which a blocklist built from such
// a list wants (the lists pair it with a local-zone of the same name).
import type { ParsedLine } from './parsed-line.js';
import { error, hostEntries, SKIP } from './list-entry.js';

/** The line is an Unbound option a blocklist uses (for auto-detection). */
export const UNBOUND_LINE = /^(?:server:\s*$|local-zone:|local-data:)/;

// Zone types that answer for the zone with a refusal, no data or a sinkhole:
// a URL in them is blocked.
const BLOCKING_ZONE_TYPES = new Set([
  'deny',
  'refuse',
  'static',
  'redirect',
  'always_refuse',
  'always_nxdomain',
  'always_nodata',
  'always_deny',
  'always_null',
  'inform_deny',
]);
// Zone types that let queries through: not a block.
const PASSING_ZONE_TYPES = new Set(['transparent', 'typetransparent', 'inform', 'always_transparent', 'nodefault', 'noview']);

/** `"name"` or `name`, without a trailing root dot. */
function zoneName(token: string): string {
  const unquoted = token.startsWith('"') && token.endsWith('"') && token.length >= 2 ? token.slice(1, -1) : token;
  return unquoted.endsWith('.') && unquoted.length > 1 ? unquoted.slice(0, -1) : unquoted;
}

/** One trimmed, non-blank Unbound line. */
export function parseUnbound(t: string): ParsedLine {
  if (t.startsWith('#')) return SKIP;
  const text = t.replace(/\s+#.*$/, '');
  if (/^server:\s*$/.test(text)) return SKIP; // the section the options belong to
  const zone = /^local-zone:\s*("[^"]*"|\S+)\s+(\S+)$/.exec(text);
  if (zone !== null) {
    const type = zone[2]!.toLowerCase();
    if (PASSING_ZONE_TYPES.has(type)) return error(`local-zone type "${type}" lets queries through: it does not block`);
    if (!BLOCKING_ZONE_TYPES.has(type)) return error(`unknown local-zone type "${zone[2]}"`);
    return hostEntries([zoneName(zone[1]!)]);
  }
  const data = /^local-data:\s*"([^"]*)"$/.exec(text);
  if (data !== null) {
    const name = data[1]!.trim().split(/\s+/)[0] ?? '';
    if (name === '') return error('local-data names no host');
    return hostEntries([zoneName(name)]);
  }
  if (/^local-(?:zone|data):/.test(text)) return error('expected local-zone: "host" <type> or local-data: "host <type> <data>"');
  return error('not an Unbound local-zone: or local-data: line');
}
