/**
 * The bulk runner's hooks that keep a receipt ahead of the service: each batch is
 * written as `sending` before it is sent and `settled` once its answer is in, so a
 * run that stops between the two (a full disk, a kill) leaves a receipt naming
 * what the service may have done.
 */
import type { SourceItem } from '../io/input/types.js';
import type { ReceiptWriter } from './receipt-writer.js';

/** `idOf` names an item's id as the receipt keeps it; `entryOf` its plan entry (pla apply). */
export function sendingHooks(writer: ReceiptWriter, idOf: (item: SourceItem) => number | string | undefined, entryOf?: (item: SourceItem) => number) {
  const numbers = new Map<number, number>();
  return {
    onSending: (batch: number, items: SourceItem[]) => {
      const line = (item: SourceItem) => {
        const id = idOf(item);
        const entry = entryOf?.(item);
        return { line: item.line, ...(id !== undefined ? { id } : {}), ...(entry !== undefined ? { entry } : {}) };
      };
      numbers.set(batch, writer.sending(items.map(line)));
    },
    onSettled: (batch: number, unknown: number[]) => {
      const number = numbers.get(batch);
      if (number !== undefined) writer.settled(number, unknown);
    },
  };
}
