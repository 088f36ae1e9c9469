/** The paging options of the lists, in a module of their own: paged.ts and filtered-list.ts both read them. */

/** `--page`, `--size`, `--sort`, `--all`, `--max-items` (commands/options.ts). */
export interface PagingOptions {
  page?: number;
  size?: number;
  /** Absent on lists whose endpoint takes no sort. */
  sort?: string[];
  all?: boolean;
  maxItems?: number;
  /** Records added or removed during `--all` are a warning, not exit 9. */
  allowDrift?: boolean;
}
