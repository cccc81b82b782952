// What a blocklist's never-match step reports (https://github.com/cuckoo-bloom-wasm/cuckoo-bloom-wasm/blob/main/docs/URL-BLOCKLISTS.md,
// "Never-match hosts"); the step itself: never-match-expressions.ts.

/** What a blocklist's never-match step did: in `UrlBlocklistReport.neverMatch`. */
export interface NeverMatchReport {
  /** Never-match hosts and URLs given. */
  entries: number;
  /** Distinct expressions they make (each host's suffix expressions included), all checked against the filter. */
  expressions: number;
  /** Those the filter reported and the list does not hold: now in the exception set, never a hit. */
  excepted: number;
  /** Exceptions the blocklist holds now (this step's and earlier ones'). */
  exceptions: number;
  /** What the exception set adds to the blocklist's bytes (its type-33 blob; 0 for none). */
  exceptionBytes: number;
  /**
   * Never-match expressions that are listed: the list wins (they stay hits, no
   * false negative), each a warning with the entry that made it.
   */
  listed: Array<{
    /** The never-match host or URL, as given. */
    entry: string;
    /** Its expression that the list holds. */
    expression: string;
  }>;
}
