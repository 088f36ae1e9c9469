/**
 * Image upload (multipart: a `file` part with the bytes and an `image` part with
 * the ImageDto as JSON, as a field or a file part) and delete. The 201 has no
 * body, so it carries `Location: /api/images/<id>`.
 */
import { parseJson } from '../../json/json-parse.js';
import type { RecordId } from '../../contract/ids.js';
import { NOUNS } from '../../contract/wording.js';
import type { IncomingMessage } from 'node:http';
import busboy from 'busboy';
import { imageDto } from '../../contract/schemas.js';
import type { StoredRecord } from '../../store/types.js';
import { checkDeclaredLength, refuseDeepJson } from '../body.js';
import { ignoredFieldsHeader, type OperationHandler, type ServerContext } from '../context.js';
import type { SavedImage } from '../image-files.js';
import { HttpProblem, badField, clientAborted, notFound } from '../problem.js';
import { validate } from '../validation.js';

/** Room for the `image` part and multipart framing on top of the file limit. */
const FRAMING_BYTES = 1024 * 1024;

interface Upload {
  file?: SavedImage & { fileName: string; mimeType: string };
  imageText?: string;
}

function malformed(error: unknown): HttpProblem {
  return new HttpProblem(400, `malformed multipart body: ${error instanceof Error ? error.message : String(error)}`, { slug: 'malformed-multipart' });
}

function readUpload(req: IncomingMessage, ctx: ServerContext): Promise<Upload> {
  const limit = ctx.options.maxImageBytes;
  return new Promise((resolve, reject) => {
    const upload: Upload = {};
    let saving: Promise<void> | undefined;
    let failed = false;
    let parser: busboy.Busboy;
    try {
      // File names are read as UTF-8 (busboy's default is latin1): `Übersicht.png` stays as sent.
      parser = busboy({ headers: req.headers, defParamCharset: 'utf8', limits: { fileSize: limit, files: 2, fields: 10, parts: 12 } });
    } catch (error) {
      // e.g. multipart/form-data without a boundary: the client's mistake, not ours.
      reject(malformed(error));
      return;
    }
    const fail = (error: unknown) => {
      if (failed) return;
      failed = true;
      req.unpipe(parser);
      req.pause();
      // Bytes saved before the failure are not kept.
      void Promise.resolve(saving)
        .catch(() => undefined)
        .then(() => upload.file && ctx.images.discard(upload.file));
      reject(error);
    };
    // A client gone before its body ended: end the parse, so the file being saved is
    // dropped (temporary file removed, its handle closed) rather than waited on forever.
    const abandoned = () => {
      fail(clientAborted('upload'));
      parser.destroy(new Error('the request ended before its body did'));
    };
    if (req.destroyed && !req.complete) {
      abandoned(); // gone before the handler got here: 'close' has been and gone
      return;
    }
    req.once('close', () => {
      if (!req.complete) abandoned();
    });
    parser.on('file', (name, stream, info) => {
      // A part cut short errors its stream as well as the parser; the parser's 'error'
      // answers for both, and an unheard stream error would end the process.
      stream.on('error', () => {});
      if (name === 'file' && !saving) {
        saving = ctx.images.save(stream, limit).then((saved) => {
          upload.file = { ...saved, fileName: info.filename ?? 'upload', mimeType: info.mimeType };
        });
        saving.catch(fail);
      } else if (name === 'image') {
        const chunks: Buffer[] = [];
        stream.on('data', (chunk: Buffer) => chunks.push(chunk));
        stream.on('end', () => (upload.imageText = Buffer.concat(chunks).toString('utf8')));
      } else {
        stream.resume();
      }
    });
    parser.on('field', (name, value) => {
      if (name === 'image') upload.imageText = value;
    });
    parser.on('close', () => {
      Promise.resolve(saving).then(() => resolve(upload), fail);
    });
    parser.on('error', (error: Error) => fail(malformed(error)));
    req.pipe(parser);
  });
}

/** The ImageDto of the `image` part, and its fields ImageDto does not have (dropped, named as `image.<name>`). */
function parseImagePart(text: string | undefined): { image: Record<string, unknown>; ignored: string[] } {
  if (text === undefined) throw badField('image', 'the image part (ImageDto as JSON) is required');
  let value: unknown;
  try {
    value = parseJson(text);
  } catch {
    throw badField('image', 'the image part is not valid JSON');
  }
  refuseDeepJson(value, 'image');
  const image = validate(imageDto, value, 'image');
  const ignored = Object.keys(value as object)
    .filter((name) => !Object.hasOwn(imageDto.shape, name))
    .map((name) => `image.${name}`);
  return { image, ignored };
}

/** The store lock that makes placing and releasing the bytes of one hash one step each. */
const hashLock = (sha256: string) => `image:${sha256}`;

/**
 * Drops the bytes of a hash once no image record refers to them. Counting the records
 * and removing the file happen under the hash's lock, which an upload of the same
 * bytes holds while it places the file and stores its record: an upload racing a
 * delete either is counted here, or places its file again after the removal.
 */
async function releaseIfUnused(ctx: ServerContext, sha256: string): Promise<void> {
  await ctx.store.transaction(async (tx) => {
    await tx.lock(hashLock(sha256));
    if ((await tx.count('images', [{ field: 'sha256', equals: sha256 }])) === 0) await ctx.images.release(sha256);
  });
}

export const imageHandlers = {
  upload: async ({ req, now }, ctx) => {
    checkDeclaredLength(req, Math.max(ctx.options.maxBodyBytes, ctx.options.maxImageBytes + FRAMING_BYTES));
    const upload = await readUpload(req, ctx);
    const { file } = upload;
    let image: Record<string, unknown>;
    let ignored: string[];
    try {
      if (!file) throw badField('file', 'the file part (the image bytes) is required');
      ({ image, ignored } = parseImagePart(upload.imageText));
    } catch (error) {
      if (file) await ctx.images.discard(file);
      throw error;
    }
    const { id: _ignored, ...fields } = image;
    let placed = false;
    try {
      const record = await ctx.store.transaction(async (tx) => {
        // Placing the file and storing its record is one step under the hash's lock (see releaseIfUnused).
        await tx.lock(hashLock(file.sha256));
        await ctx.images.place(file, tx);
        placed = true;
        const [id] = await tx.allocateIds('images', 1);
        const stored: StoredRecord = {
          id: id as number,
          ...fields,
          name: image.name ?? file.fileName,
          type: image.type ?? file.mimeType,
          createdDate: now,
          lastModifiedDate: now,
          fileName: file.fileName,
          contentType: file.mimeType,
          size: file.size,
          sha256: file.sha256,
        };
        tx.put('images', stored);
        return stored;
      });
      return { headers: { location: `/api/images/${record.id}`, ...(ignored.length ? ignoredFieldsHeader(ignored) : {}) } };
    } catch (error) {
      // Not stored: the bytes go unless another image refers to them.
      if (placed) await releaseIfUnused(ctx, file.sha256).catch(() => undefined);
      throw error;
    } finally {
      await ctx.images.discard(file);
    }
  },

  delete: async ({ params }, ctx) => {
    const record = await ctx.store.transaction(async (tx) => {
      const found = await tx.get('images', params.id as RecordId);
      if (!found) throw notFound(NOUNS.images, [params.id as RecordId]);
      // Under the hash's lock, as an upload of the same bytes places them: the database drops the bytes with the last record, and must not while an upload adds one.
      await tx.lock(hashLock(String(found.sha256)));
      tx.delete('images', found.id);
      return found;
    });
    await releaseIfUnused(ctx, String(record.sha256));
    return {};
  },
} satisfies Record<string, OperationHandler>;
