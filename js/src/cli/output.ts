/**
 * Buffered line output to stdout that respects back-pressure, so a query of
 * millions of keys streams its verdicts instead of queueing them all.
 */
import { once } from 'node:events';
import type { Writable } from 'node:stream';

const FLUSH_CHARS = 64 * 1024;

export class LineWriter {
  readonly #stream: Writable;
  #buffer = '';

  constructor(stream: Writable) {
    this.#stream = stream;
  }

  /** Queues `line` (a newline is added); awaits the stream when its buffer is full. */
  async line(line: string): Promise<void> {
    this.#buffer += `${line}\n`;
    if (this.#buffer.length >= FLUSH_CHARS) await this.flush();
  }

  async flush(): Promise<void> {
    if (this.#buffer === '') return;
    const text = this.#buffer;
    this.#buffer = '';
    if (!this.#stream.write(text)) await once(this.#stream, 'drain');
  }
}

/**
 * A reader of our output that went away (`... | head`) is not an error: stop
 * quietly with the status computed so far (`status()`).
 */
export function exitQuietlyOnBrokenPipe(stream: Writable, status: () => number): void {
  stream.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE') process.exit(status());
    throw error;
  });
}
