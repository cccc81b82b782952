/**
 * Buffered line output to stdout that respects back-pressure, so a query of
 * millions of keys streams its verdicts instead of queueing them all.
 */
import { once } from 'node:events';
import type { Writable } from 'node:stream';

const FLUSH_BYTES = 64 * 1024;
const NEWLINE = Buffer.from('\n');

export class LineWriter {
  readonly #stream: Writable;
  #parts: Uint8Array[] = [];
  #bytes = 0;

  constructor(stream: Writable) {
    this.#stream = stream;
  }

  /**
   * Queues one line made of `parts` (strings as UTF-8, bytes as they are: a
   * key read as bytes is echoed unchanged); awaits the stream when its buffer
   * is full.
   */
  async line(...parts: Array<string | Uint8Array>): Promise<void> {
    for (const part of parts) {
      // Copied: a key's bytes may be a view into a chunk that will be reused.
      const bytes = typeof part === 'string' ? Buffer.from(part, 'utf8') : Buffer.from(part);
      this.#parts.push(bytes);
      this.#bytes += bytes.length;
    }
    this.#parts.push(NEWLINE);
    this.#bytes += 1;
    if (this.#bytes >= FLUSH_BYTES) await this.flush();
  }

  async flush(): Promise<void> {
    if (this.#bytes === 0) return;
    const chunk = Buffer.concat(this.#parts, this.#bytes);
    this.#parts = [];
    this.#bytes = 0;
    if (!this.#stream.write(chunk)) await once(this.#stream, 'drain');
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
