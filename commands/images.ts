/** `pla images`: property images (spec 4.4). */
import { runs } from '../src/cli/invocation.js';
import { examples } from './options.js';
import { addDeleteVerb } from './record-verbs.js';
import { tree as newTree } from './tree.js';

/** Declares the `pla images` tree; handlers load only when a verb runs. */
export function createImagesCommand() {
  const tree = newTree('images').description('images of real estate properties');
  const upload = tree
    .command('upload <file>')
    .description('upload an image; prints its location and id')
    .option('--name <name>', 'image name (default: the file name)')
    .option('--service <service>', 'the service the image belongs to')
    .option('--type <type>', 'image type (default: from the extension, e.g. image/png)')
    .option('--image <json>', 'the whole ImageDto as JSON (overrides the options above)');
  examples(upload, 'pla images upload front.jpg --service portfolio');
  runs(upload, async () => (await import('../src/cli/handlers/images.js')).upload);

  addDeleteVerb(tree, 'images.delete', 'pla images delete 5 --yes');
  return tree;
}
