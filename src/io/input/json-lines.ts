import { Transform, type TransformCallback } from 'node:stream';
import { BACKSLASH, CLOSE_BRACE, CLOSE_BRACKET, COLON, COMMA, NEWLINE, OPEN_BRACE, OPEN_BRACKET, QUOTE } from '../../json/json-bytes.js';

function isSpace(byte: number): boolean {
  return byte === 0x20 || byte === NEWLINE || byte === 0x0d || byte === 0x09;
}

/**
 * A pass-through stream that notes the line on which each value at `depth` starts
 * (depth 1: elements of a top-level array; depth 0: a stream of top-level values).
 *
 * stream-json's tokens carry no positions, so the lines come from this light scan
 * of the same bytes: it only follows strings and brackets, the parser behind it
 * still does the real parsing. Values come out of the parser in the same order, so
 * the n-th value's line is the n-th line noted here. Only lines the parser has not
 * consumed yet are held, which stream back-pressure keeps bounded.
 */
export class ValueLineTracker extends Transform {
  private line = 1;
  private depth = 0;
  private inString = false;
  private escaped = false;
  private inBare = false;
  /** Start lines of values not handed out yet; `starts[0]` is value number `offset`. */
  private readonly starts: number[] = [];
  private offset = 0;
  private next = 0;

  constructor(private readonly valueDepth: 0 | 1) {
    super();
  }

  /** Line on which value number `index` (0-based) starts; the scan's current line if not seen yet. */
  lineAt(index: number): number {
    return this.starts[index - this.offset] ?? this.line;
  }

  /** Line of the next value the parser hands out. */
  nextLine(): number {
    const line = this.lineAt(this.next);
    this.next += 1;
    if (this.next - this.offset > 4096) {
      this.starts.splice(0, this.next - this.offset);
      this.offset = this.next;
    }
    return line;
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    for (let i = 0; i < chunk.length; i++) this.scan(chunk[i] as number);
    callback(null, chunk);
  }

  private scan(byte: number): void {
    if (byte === NEWLINE) this.line += 1;
    if (this.inString) {
      if (this.escaped) this.escaped = false;
      else if (byte === BACKSLASH) this.escaped = true;
      else if (byte === QUOTE) this.inString = false;
      return;
    }
    if (this.inBare) {
      if (!isSpace(byte) && byte !== COMMA && byte !== CLOSE_BRACE && byte !== CLOSE_BRACKET) return;
      this.inBare = false;
    }
    switch (byte) {
      case QUOTE:
        this.noteStart();
        this.inString = true;
        return;
      case OPEN_BRACE:
      case OPEN_BRACKET:
        this.noteStart();
        this.depth += 1;
        return;
      case CLOSE_BRACE:
      case CLOSE_BRACKET:
        this.depth -= 1;
        return;
      case COMMA:
      case COLON:
        return;
      default:
        if (isSpace(byte)) return;
        // A number or literal (true, false, null) starts here.
        this.noteStart();
        this.inBare = true;
    }
  }

  private noteStart(): void {
    if (this.depth === this.valueDepth) this.starts.push(this.line);
  }
}
