// JSON text written as UTF-8 bytes straight into a growing buffer, for the JSONL writer
// (jsonl.ts lineOf): an export of a million pairs writes some 25 million links and 40 million
// token offsets, and assembling each line as a string first (concatenations, then the
// string's encoding into the output buffer) cost more than the reading of the project. No
// library writes JSON this way from values that are not objects (the point is not to make
// them); the text is JSON.stringify's for the same values, byte for byte (jsonl-writer.test.ts):
// strings escaped as it escapes them, numbers in its shortest form.
import { Buffer } from 'node:buffer';

/** A string JSON.stringify writes with an escape: a quote, a backslash, a control character or a surrogate (a lone one is escaped; a pair is rare enough to hand over whole). */
const NEEDS_ESCAPE = /["\\\u0000-\u001f\ud800-\udfff]/;

/** JSON text of k / 10000 for k = 0…10000: the scores the aligners store (4 decimals), written without formatting a double each time. */
const SCORE_TEXT = Array.from({ length: 10001 }, (_, k) => String(k / 10000));

export class JsonBytes {
  private buf: Buffer;
  /** bytes written */
  at = 0;

  constructor(private readonly initial = 1 << 20) {
    this.buf = Buffer.allocUnsafe(initial);
  }

  /** Room for `n` more bytes. */
  private room(n: number): void {
    if (this.at + n <= this.buf.length) return;
    const bigger = Buffer.allocUnsafe(Math.max(this.buf.length * 2, this.at + n));
    this.buf.copy(bigger, 0, 0, this.at);
    this.buf = bigger;
  }

  /** Text made of ASCII characters only (keys, punctuation, a number's text) as it is. */
  ascii(text: string): void {
    this.room(text.length);
    const buf = this.buf;
    let at = this.at;
    for (let i = 0; i < text.length; i++) buf[at++] = text.charCodeAt(i);
    this.at = at;
  }

  /** One ASCII character by its code. */
  byte(code: number): void {
    this.room(1);
    this.buf[this.at++] = code;
  }

  /** A non-negative safe integer. */
  uint(n: number): void {
    if (n < 10) {
      this.byte(48 + n);
      return;
    }
    let digits = 1;
    for (let p = 10; p <= n; p *= 10) digits++;
    this.room(digits);
    const buf = this.buf;
    let at = this.at + digits;
    this.at = at;
    for (; n >= 10; n = Math.floor(n / 10)) buf[--at] = 48 + (n % 10);
    buf[--at] = 48 + n;
  }

  /** A number as JSON.stringify writes it (null when not finite). */
  number(x: number): void {
    if (Number.isSafeInteger(x) && x >= 0) return this.uint(x);
    const k = Math.round(x * 10000);
    if (k > 0 && k < 10000 && k / 10000 === x) return this.ascii(SCORE_TEXT[k]);
    this.ascii(Number.isFinite(x) ? String(x) : 'null');
  }

  /** A string in quotes, escaped as JSON.stringify escapes it. */
  string(s: string): void {
    if (NEEDS_ESCAPE.test(s)) {
      const quoted = JSON.stringify(s);
      this.room(quoted.length * 3);
      this.at += this.buf.write(quoted, this.at, 'utf8');
      return;
    }
    // a UTF-16 unit takes at most 3 bytes (a surrogate pair, two units, takes 4)
    this.room(s.length * 3 + 2);
    this.buf[this.at++] = 34;
    this.at += this.buf.write(s, this.at, 'utf8');
    this.buf[this.at++] = 34;
  }

  /** The bytes written, handed over (the caller may keep them); writing starts again in a new buffer. */
  take(): Buffer {
    const out = this.buf.subarray(0, this.at);
    this.buf = Buffer.allocUnsafe(Math.max(this.initial, this.at));
    this.at = 0;
    return out;
  }

  /** The bytes written as a string; writing starts again in the same buffer. */
  text(): string {
    const out = this.buf.toString('utf8', 0, this.at);
    this.at = 0;
    return out;
  }
}
