// Response Policy Zone files (BIND, Unbound, Knot, PowerDNS): a DNS zone whose
// owner names are the blocked hosts, relative to the policy zone's origin:
//   $TTL 300
//   @ IN SOA localhost. root.localhost. ( 1 3600 900 86400 300 )
//     IN NS  localhost.
//   evil.example      CNAME .        ; NXDOMAIN: the host
//   *.evil.example    CNAME .        ; every subdomain
//   tracker.example   A 0.0.0.0      ; a sinkhole answer (local data)
// A line needs what earlier lines said ($ORIGIN, the SOA, the owner of the
// record before), so a parser keeps an RpzState for the whole file.
import type { ParsedLine } from './parsed-line.js';
import { entries, error, expressionForHost, reasonOf, SKIP } from './list-entry.js';

/** What an RPZ file has said so far. */
export interface RpzState {
  /** The current $ORIGIN, absolute, lower case, without the root dot; null before any. */
  origin: string | null;
  /** The policy zone's own name (its SOA owner, else the first $ORIGIN): stripped from absolute owner names. */
  apex: string | null;
  /** Inside a record continued over lines by "(" … ")" (an SOA, usually). */
  inParens: boolean;
  /** The owner of the last record: a line starting with whitespace continues it. */
  lastOwner: string | null;
}

export function newRpzState(): RpzState {
  return { origin: null, apex: null, inParens: false, lastOwner: null };
}

const CLASSES = new Set(['IN', 'CH', 'HS']);
const TTL = /^\d+[smhdw]?(?:\d+[smhdw])*$/i;
/** Types of an RPZ's zone records, which say nothing about a host. */
const ZONE_TYPES = new Set(['SOA', 'NS', 'DNSKEY', 'RRSIG', 'NSEC', 'NSEC3', 'NSEC3PARAM', 'DS']);
/** Local-data answers for a trigger: the host is redirected, i.e. blocked. */
const LOCAL_DATA_TYPES = new Set(['A', 'AAAA', 'TXT', 'MX', 'SRV', 'PTR', 'HTTPS', 'SVCB']);
/**
 * A record line, for auto-detection: "name [ttl] [class] TYPE …" with the type
 * in capitals (as zone files write it) and a name with a dot, `@` or `*.`, so
 * that text such as "not a host" is never read as a record of type "a".
 */
const RECORD_LINE = /^(?:@|\*\.\S+|\S*\.\S*)(?:\s+(?:\d+[smhdw]?|IN|CH|HS))*\s+(?:CNAME|A|AAAA|TXT|SOA|NS)(?:\s|$)/;

/**
 * A record line once the list has shown itself a zone file (a $ORIGIN or an SOA
 * set the origin): any owner name, relative ones ("www") included, or none (a
 * line starting with whitespace continues the previous owner). The type must
 * still be in capitals, as zone files write it.
 */
const RECORD_LINE_IN_ZONE = /^(?:\S+)?(?:\s+(?:\d+[smhdw]?|IN|CH|HS))*\s+(?:CNAME|A|AAAA|TXT|SOA|NS|MX|PTR|HTTPS|SVCB|SRV|DNSKEY|RRSIG|NSEC|NSEC3|NSEC3PARAM|DS)(?:\s|$)/;

/** Whether an untrimmed line reads as a record of a list already known to be a zone file (for auto-detection). */
export function looksLikeRecordInZone(line: string, state: RpzState): boolean {
  return state.origin !== null && RECORD_LINE_IN_ZONE.test(line.replace(/;.*$/, ''));
}

/** Whether a line reads as a zone-file line (for auto-detection). */
export function looksLikeZoneLine(t: string): boolean {
  return /^\$(?:ORIGIN|TTL|INCLUDE|GENERATE)\b/i.test(t) || RECORD_LINE.test(t);
}

function absolute(name: string, origin: string | null): string | null {
  if (name === '@') return origin;
  if (name.endsWith('.')) return name.slice(0, -1).toLowerCase();
  return origin === null ? null : `${name.toLowerCase()}.${origin}`;
}

/** One RPZ line (untrimmed: leading whitespace means "the previous owner"). */
export function parseRpz(line: string, state: RpzState): ParsedLine {
  const text = line.replace(/;.*$/, '');
  if (state.inParens) {
    if (text.includes(')')) state.inParens = false;
    return SKIP;
  }
  if (text.trim() === '') return SKIP;
  if (text.includes('(') && !text.includes(')')) state.inParens = true;
  const tokens = text.replace(/[()]/g, ' ').trim().split(/\s+/);
  const first = tokens[0]!;
  if (first.startsWith('$')) return directive(tokens, state);

  const continued = /^\s/.test(text);
  const owner = continued ? state.lastOwner : first;
  if (owner === null) return error('a record with no owner name, and no record before it');
  let i = continued ? 0 : 1;
  while (i < tokens.length && (CLASSES.has(tokens[i]!.toUpperCase()) || TTL.test(tokens[i]!))) i++;
  const type = tokens[i]?.toUpperCase();
  const data = tokens.slice(i + 1);
  if (type === undefined) return error('expected "<name> [ttl] [class] <type> <data>"');
  state.lastOwner = owner;

  if (type === 'SOA') {
    // The SOA's owner is the policy zone: absolute names below it end in its name.
    const apex = owner === '@' ? state.origin : owner.endsWith('.') ? owner.slice(0, -1).toLowerCase() : absolute(owner, state.origin);
    if (state.apex === null) state.apex = apex;
    return SKIP;
  }
  if (ZONE_TYPES.has(type)) return SKIP;
  if (type === 'CNAME') {
    const target = (data[0] ?? '').toLowerCase();
    if (target === '') return error('CNAME with no target');
    if (target === 'rpz-passthru.') return error('rpz-passthru is an exception (let through): it cannot be expressed in a blocklist');
    if (target === 'rpz-tcp-only.') return error('rpz-tcp-only does not block the name');
    // "." (NXDOMAIN), "*." (NODATA), rpz-drop., or a walled garden: blocked.
  } else if (!LOCAL_DATA_TYPES.has(type)) {
    return error(`record type ${type} is not an RPZ policy action`);
  }
  return trigger(owner, state);
}

function directive(tokens: string[], state: RpzState): ParsedLine {
  const name = tokens[0]!.toUpperCase();
  if (name === '$TTL') return SKIP;
  if (name === '$ORIGIN') {
    const origin = tokens[1];
    if (origin === undefined) return error('$ORIGIN needs a name');
    const resolved = absolute(origin, state.origin);
    if (resolved === null) return error(`$ORIGIN ${origin} is relative and no origin came before it`);
    state.origin = resolved;
    if (state.apex === null) state.apex = resolved;
    return SKIP;
  }
  return error(`${tokens[0]} is not supported: give the zone with its lines expanded`);
}

/** The blocked host an owner name stands for. */
function trigger(owner: string, state: RpzState): ParsedLine {
  let host: string;
  const full = absolute(owner, state.origin);
  if (state.apex !== null && full !== null) {
    if (full === state.apex) return SKIP; // the zone's own name: its records are about the zone
    if (!full.endsWith(`.${state.apex}`)) return error(`${owner} is outside the policy zone ${state.apex}`);
    host = full.slice(0, -(state.apex.length + 1));
  } else if (owner.endsWith('.')) {
    return error(`${owner} is an absolute name, and no $ORIGIN or SOA says where the policy zone's name starts`);
  } else {
    // No origin given: names are relative to the policy zone, i.e. the host itself.
    host = owner.toLowerCase();
  }
  if (/(?:^|\.)rpz-(?:ip|nsip|nsdname|client-ip)$/.test(host)) {
    return error(`${host}: IP and name-server triggers cannot be expressed as host/path`);
  }
  if (host === '*') return error('"*" alone lists every name in the zone');
  try {
    return entries([expressionForHost(host)]);
  } catch (e) {
    return error(reasonOf(e));
  }
}
