// What parsing one line of a list gives: a leaf, shared by the dispatch
// (list-parser.ts), the syntaxes (list-*.ts) and the results they build (list-entry.ts).

/**
 * Result for one line. An `entry` carries every expression the line lists:
 * `expressions` has one element except for lines naming several hosts (hosts
 * files, dnsmasq); `expression` is always `expressions[0]`, kept for callers
 * that only handle single-entry lines.
 */
export type ParsedLine =
  | {
      /** The line lists hosts or URLs. */
      kind: 'entry';
      /** `expressions[0]`. */
      expression: string;
      /** The expression of each host or URL on the line (`host/` + exact path), at least one. */
      expressions: string[];
      /**
       * Why an entry may not do what the list meant (stored all the same): a
       * single-label host, or a public suffix. Absent when there is none.
       */
      warnings?: string[];
    }
  | {
      /** Nothing to store: blank, a comment, a header, a directive, or a loopback-only hosts line. */
      kind: 'skip';
    }
  | {
      /** The line could not be read. */
      kind: 'error';
      /** Why, e.g. `unexpected whitespace inside the entry`. */
      reason: string;
    };
