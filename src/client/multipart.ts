/**
 * The image upload body (spec 4.4): multipart/form-data with part `file` (the
 * bytes, with file name and media type) and part `image` (the ImageDto as JSON),
 * built with form-data.
 *
 * The body is buffered whole rather than streamed: each attempt sends it again,
 * which a consumed stream cannot be, and an upload that fails with a 503 or a reset connection should
 * be retried like any other POST carrying an idempotency key. Images are small
 * enough (the local server caps them at 5 MB by default) for that to be cheap.
 */
import type { Readable } from 'node:stream';
import type { ImageUpload } from './types.js';
import { jsonText } from '../json/json-text.js';

export interface MultipartBody {
  body: Buffer;
  contentType: string;
}

async function readAll(source: Readable | Buffer): Promise<Buffer> {
  if (Buffer.isBuffer(source)) return source;
  const chunks: Buffer[] = [];
  for await (const chunk of source) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer));
  return Buffer.concat(chunks);
}

/** Builds the two-part body and its content type (with the boundary). */
export async function buildImageUpload(upload: ImageUpload): Promise<MultipartBody> {
  const { default: FormData } = await import('form-data');
  const form = new FormData();
  form.append('file', await readAll(upload.file), {
    filename: upload.fileName,
    contentType: upload.contentType ?? 'application/octet-stream',
  });
  form.append('image', jsonText(upload.image), { contentType: 'application/json' });
  return { body: form.getBuffer(), contentType: form.getHeaders()['content-type'] as string };
}
