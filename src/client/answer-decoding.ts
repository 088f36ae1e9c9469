/**
 * An answer's body as sent before its Content-Encoding. Not undici's `decompress`
 * interceptor: in undici 7 it is experimental (it prints an ExperimentalWarning on
 * stderr, which scripts read) and reads `deflate` only zlib-wrapped, while some
 * servers send it raw. Decoded whole, no further than the size cap: a small gzip
 * body may inflate to gigabytes. node:zlib is loaded only for an encoded answer.
 */
import { MalformedAnswerError, type AnswerBoundError } from './answer-bounds.js';

/** The codings a Content-Encoding names, in the order they were applied (`identity` left out). */
export function codings(encoding: string | string[] | undefined): string[] {
  return String(encoding ?? '')
    .split(',')
    .map((coding) => coding.trim().toLowerCase())
    .filter((coding) => coding !== '' && coding !== 'identity');
}

function codeOf(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | undefined)?.code;
  return typeof code === 'string' ? code : undefined;
}

/**
 * `body` with the codings of `encoding` undone in reverse order, at most `maxBytes`
 * (else the error `tooLarge` makes); a body that does not decode is a MalformedAnswerError.
 */
export function decodeAnswer(body: Buffer, encoding: string | string[] | undefined, maxBytes: number, tooLarge: () => AnswerBoundError): Buffer {
  const applied = codings(encoding).reverse();
  if (applied.length === 0 || body.length === 0) return body;
  const zlib = process.getBuiltinModule('node:zlib');
  const limit = { maxOutputLength: maxBytes };
  let decoded = body;
  for (const coding of applied) {
    try {
      if (coding === 'gzip' || coding === 'x-gzip') decoded = zlib.gunzipSync(decoded, limit);
      else if (coding === 'br') decoded = zlib.brotliDecompressSync(decoded, limit);
      else if (coding === 'deflate') {
        // "deflate" is zlib-wrapped by the standard, raw from some servers.
        const wrapped = decoded[0] !== undefined && (decoded[0] & 0x0f) === 8;
        decoded = wrapped ? zlib.inflateSync(decoded, limit) : zlib.inflateRawSync(decoded, limit);
      } else throw new MalformedAnswerError('PLA_ANSWER_ENCODING', `the answer came with Content-Encoding ${coding}, which pla did not ask for`);
    } catch (error) {
      if (error instanceof MalformedAnswerError) throw error;
      if (codeOf(error) === 'ERR_BUFFER_TOO_LARGE') throw tooLarge();
      throw new MalformedAnswerError(
        codeOf(error) ?? 'PLA_ANSWER_ENCODING',
        `the answer's ${coding} body does not decode: ${error instanceof Error ? error.message : String(error)}`,
        {
          cause: error,
        },
      );
    }
  }
  return decoded;
}
