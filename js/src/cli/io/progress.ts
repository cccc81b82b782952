/**
 * A one-line progress bar on stderr. It only ever appears when the stream is
 * a terminal and the input is long (more than 100,000 lines or 4 MiB, known
 * up front from the file size or noticed while reading), and it redraws at
 * most every 100 ms. On a pipe or file it writes nothing at all.
 */

/** The part of a tty.WriteStream the bar needs (a fake one in tests). */
interface ProgressStream {
  isTTY?: boolean;
  columns?: number;
  write(text: string): unknown;
}

interface ProgressOptions {
  stream: ProgressStream;
  /** What is being done: "counting", "building", ... */
  label: string;
  /** Input size in bytes when known (a file), for the bar and percentage. */
  totalBytes?: number | null;
  /** Clock in ms (tests pass a fake one). */
  now?: () => number;
  /** Minimum time between redraws. */
  intervalMs?: number;
  /** Show only past this many lines... */
  minLines?: number;
  /** ...or this many bytes (read so far, or in total). */
  minBytes?: number;
}

const PROGRESS_MIN_LINES = 100_000;
const PROGRESS_MIN_BYTES = 4 * 1024 * 1024;
const PROGRESS_INTERVAL_MS = 100;

const BAR_WIDTH = 24;

export class Progress {
  readonly #stream: ProgressStream;
  readonly #label: string;
  readonly #total: number | null;
  readonly #now: () => number;
  readonly #interval: number;
  readonly #minLines: number;
  readonly #minBytes: number;
  readonly #enabled: boolean;
  #started: number;
  #lastDraw = Number.NEGATIVE_INFINITY;
  #drawn = false;

  constructor(options: ProgressOptions) {
    this.#stream = options.stream;
    this.#label = options.label;
    this.#total = options.totalBytes && options.totalBytes > 0 ? options.totalBytes : null;
    this.#now = options.now ?? Date.now;
    this.#interval = options.intervalMs ?? PROGRESS_INTERVAL_MS;
    this.#minLines = options.minLines ?? PROGRESS_MIN_LINES;
    this.#minBytes = options.minBytes ?? PROGRESS_MIN_BYTES;
    this.#enabled = options.stream.isTTY === true;
    this.#started = this.#now();
  }

  /** True when this bar may draw at all (the stream is a terminal). */
  get enabled(): boolean {
    return this.#enabled;
  }

  /** Reports progress; draws if the input is long enough and the last draw is old enough. */
  update(bytes: number, lines: number): void {
    if (!this.#enabled) return;
    const long = lines > this.#minLines || bytes > this.#minBytes || (this.#total ?? 0) > this.#minBytes;
    if (!long) return;
    const now = this.#now();
    if (now - this.#lastDraw < this.#interval) return;
    this.#lastDraw = now;
    this.#drawn = true;
    this.#stream.write(`\r${this.#render(bytes, lines, now)}\x1b[K`);
  }

  /** Erases the bar (if it was drawn), leaving the cursor at the start of an empty line. */
  finish(): void {
    if (this.#drawn) this.#stream.write('\r\x1b[K');
    this.#drawn = false;
  }

  /**
   * The longest form that fits the terminal, parts dropped least useful first
   * (the rate, then the byte counts, then the bar itself), so a narrow terminal
   * still shows whole words and the percentage; only a line too narrow for the
   * shortest form is cut (issue #44: the full line was cut at 80 columns, rate
   * and all).
   */
  #render(bytes: number, lines: number, now: number): string {
    const seconds = Math.max(0.001, (now - this.#started) / 1000);
    const rate = `${formatCount(Math.round(lines / seconds))} lines/s`;
    const count = `${formatCount(lines)} lines`;
    let forms: string[];
    if (this.#total !== null) {
      const fraction = Math.min(1, bytes / this.#total);
      const percent = `${(fraction * 100).toFixed(0).padStart(3)}%`;
      const bar = (width: number): string => {
        const filled = Math.round(fraction * width);
        return `[${'#'.repeat(filled)}${'-'.repeat(width - filled)}]`;
      };
      const size = `${formatMiB(bytes)}/${formatMiB(this.#total)} MiB`;
      forms = [
        `${this.#label} ${bar(BAR_WIDTH)} ${percent} ${count}, ${size}, ${rate}`,
        `${this.#label} ${bar(BAR_WIDTH)} ${percent} ${count}, ${size}`,
        `${this.#label} ${bar(BAR_WIDTH)} ${percent} ${count}`,
        `${this.#label} ${bar(BAR_WIDTH / 2)} ${percent} ${count}`,
        `${this.#label} ${percent} ${count}`,
        `${this.#label} ${percent}`,
      ];
    } else {
      forms = [`${this.#label} ${count}, ${formatMiB(bytes)} MiB, ${rate}`, `${this.#label} ${count}, ${formatMiB(bytes)} MiB`, `${this.#label} ${count}`];
    }
    // One column short of the width: a line that fills it would wrap the cursor.
    const width = Math.max(20, (this.#stream.columns || 80) - 1);
    const text = forms.find((form) => form.length <= width) ?? forms.at(-1)!;
    return text.length > width ? text.slice(0, width) : text;
  }
}

function formatCount(n: number): string {
  return n.toLocaleString('en-US');
}

function formatMiB(bytes: number): string {
  return (bytes / (1024 * 1024)).toFixed(1);
}
