/** `pla images`: property images (spec 4.4). */
import { Command } from 'commander';
import { declareAction } from './actions.js';
import { examples } from './options.js';
import { addDeleteVerb } from './record-verbs.js';

/** Declares the `pla images` tree; handlers load only when a verb runs. */
export function createImagesCommand(): Command {
  const tree = new Command('images').description('images of real estate properties');
  const upload = tree
    .command('upload <file>')
    .description('upload an image; prints its location and id')
    .option('--name <name>', 'image name (default: the file name)')
    .option('--service <service>', 'the service the image belongs to')
    .option('--type <type>', 'image type (default: from the extension, e.g. image/png)')
    .option('--image <json>', 'the whole ImageDto as JSON (overrides the options above)');
  examples(upload, 'pla images upload front.jpg --service portfolio');
  declareAction(upload, 'images.upload');

  addDeleteVerb(tree, 'images.delete', 'pla images delete 5 --yes');
  return tree;
}
