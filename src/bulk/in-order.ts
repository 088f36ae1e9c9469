/**
 * Hands on what finished batches produced in input order. Batches run several at
 * once and finish in any order; a batch's values wait here until every batch
 * before it is done, then go to `deliver` (which may wait, e.g. for a slow pipe).
 */
export class InOrder<T> {
  private next = 0;
  private readonly waiting = new Map<number, T[]>();
  private chain: Promise<void> = Promise.resolve();

  constructor(private readonly deliver: (values: T[]) => Promise<void>) {}

  /** Batches finished but held back behind an earlier one still running. */
  get held(): number {
    return this.waiting.size;
  }

  /** Batch `index` is done with `values` (none for a batch skipped by the checkpoint); resolves once delivered or held. */
  done(index: number, values: T[]): Promise<void> {
    this.waiting.set(index, values);
    this.chain = this.chain.then(async () => {
      for (let ready = this.waiting.get(this.next); ready !== undefined; ready = this.waiting.get(this.next)) {
        this.waiting.delete(this.next);
        this.next += 1;
        if (ready.length > 0) await this.deliver(ready);
      }
    });
    return this.chain;
  }

  /**
   * Delivers whatever is still held, in order, past the gaps a stopped run leaves
   * (batches never sent): a batch the checkpoint counts as finished has its values
   * shown even when an earlier one never finished.
   */
  async flush(): Promise<void> {
    await this.chain;
    for (const index of [...this.waiting.keys()].sort((a, b) => a - b)) {
      const values = this.waiting.get(index) as T[];
      this.waiting.delete(index);
      if (values.length > 0) await this.deliver(values);
    }
  }
}
