/**
 * The bulk runner's hooks that keep a receipt ahead of the service: each batch is
 * written as `sending` before it is sent and `settled` once its answer is in, so a
 * run that stops between the two (a full disk, a kill) leaves a receipt naming
 * what the service may have done.
 */
import type { RecordId } from '../contract/ids.js';
import type { SourceItem } from '../io/input/types.js';
import type { ReceiptWriter } from './receipt-writer.js';

export interface SendingNames {
  /** An item's id as the receipt keeps it. */
  idOf: (item: SourceItem) => RecordId | string | undefined;
  /** Of `pla apply`: the item's plan entry. */
  entryOf?: (item: SourceItem) => number;
  /** The input line the receipt names (default the item's own): for `pla apply`, the plan entry's line. */
  lineOf?: (item: SourceItem) => number;
}

export function sendingHooks(writer: ReceiptWriter, names: SendingNames) {
  const lineOf = names.lineOf ?? ((item: SourceItem) => item.line);
  // Per batch of the runner: its number in the receipt, and the receipt's line of each item.
  const batches = new Map<number, { number: number; lines: Map<number, number> }>();
  return {
    onSending: (batch: number, items: SourceItem[]) => {
      const line = (item: SourceItem) => {
        const id = names.idOf(item);
        const entry = names.entryOf?.(item);
        return { line: lineOf(item), ...(id !== undefined ? { id } : {}), ...(entry !== undefined ? { entry } : {}) };
      };
      const number = writer.sending(items.map(line));
      batches.set(batch, { number, lines: new Map(items.map((item) => [item.line, lineOf(item)])) });
    },
    onSettled: (batch: number, unknown: number[]) => {
      const sent = batches.get(batch);
      batches.delete(batch);
      if (sent)
        writer.settled(
          sent.number,
          unknown.map((line) => sent.lines.get(line) ?? line),
        );
    },
  };
}
