import type { SourceItem } from '../io/input/types.js';

/** A run of consecutive input items, numbered from 0 in input order. */
export interface Batch {
  index: number;
  items: SourceItem[];
}

/** Cuts a stream of items into batches of `size` (the last one may be shorter). */
export async function* toBatches(items: AsyncIterable<SourceItem>, size: number): AsyncGenerator<Batch> {
  let index = 0;
  let current: SourceItem[] = [];
  for await (const item of items) {
    current.push(item);
    if (current.length === size) {
      yield { index: index++, items: current };
      current = [];
    }
  }
  if (current.length > 0) yield { index, items: current };
}
