/** `images upload <file>`: streams the file with its ImageDto, prints where the image lives. */
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { basename, extname } from 'node:path';
import { isObject } from '../../client/objects.js';
import { parseRecordId, toRecordId } from '../../contract/ids.js';
import { UsageError } from '../../errors.js';
import { renderRecord } from '../../io/output/index.js';
import { withContext } from '../context.js';
import type { Invocation } from '../invocation.js';
import { readJsonObject } from './json-arg.js';
import { confirmedWrite } from './single-write.js';

/** Media types of the image files people upload; anything else is sent as bytes. */
const MEDIA_TYPES: Record<string, string> = {
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.svg': 'image/svg+xml',
  '.bmp': 'image/bmp',
  '.tif': 'image/tiff',
  '.tiff': 'image/tiff',
};

/** `images upload <file>`: uploads it with its ImageDto and shows the new image's location and id. */
export function upload(invocation: Invocation<[file: string], { name?: string; service?: string; type?: string; image?: string }>): Promise<void> {
  return withContext(invocation, async (ctx) => {
    const [path] = ctx.args;
    const info = await stat(path).catch(() => undefined);
    if (!info?.isFile()) throw new UsageError(`no such file: ${path}`);
    const { name, service, type, image: imageJson } = ctx.opts;
    const contentType = MEDIA_TYPES[extname(path).toLowerCase()] ?? 'application/octet-stream';
    const image = {
      name: name ?? basename(path),
      type: type ?? contentType,
      ...(service ? { service } : {}),
      ...(await readJsonObject({ inline: imageJson, name: '--image' })),
    };
    // Confirmed as any write (an answer that does not say done is an unknown outcome: an upload cannot be read back).
    const result = await confirmedWrite(
      ctx,
      'images.upload',
      { upload: { file: createReadStream(path), fileName: basename(path), contentType, image } },
      image,
    );
    const header = result.headers.location;
    const location = Array.isArray(header) ? header[0] : header;
    // The id exactly as named (past 2^53 too): from the location, else the record answered.
    const answered = isObject(result.data) ? toRecordId(result.data.id) : undefined;
    const id = (location ? parseRecordId(/\/(\d+)\/?$/.exec(location)?.[1] ?? '') : undefined) ?? answered;
    if (!location && id === undefined) {
      ctx.note(`uploaded ${basename(path)} (the service named no location)`);
      return;
    }
    await renderRecord({ ...(id === undefined ? {} : { id }), ...(location ? { location } : {}), name: image.name }, ctx.output);
  });
}
