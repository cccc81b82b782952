// psl 1.15 ships types (types/index.d.ts) that its package.json "exports" hide from
// TypeScript's resolution: the one function the CLI uses, as psl documents it.
declare module 'psl' {
  /** A domain split by the Public Suffix List; `listed`: a rule of the list (not only the default "*") matched. */
  export interface ParsedDomain {
    input: string;
    tld: string | null;
    sld: string | null;
    domain: string | null;
    subdomain: string | null;
    listed: boolean;
  }
  /** Parsing failed (an invalid domain name). */
  export interface ErrorResult {
    input: string;
    error: { code: string; message: string };
  }
  export function parse(domain: string): ParsedDomain | ErrorResult;
}
