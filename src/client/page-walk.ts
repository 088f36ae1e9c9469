/**
 * The one page walker: every page pla reads (a single `--page`, `--all`,
 * `--max-items`, exports, plans' current-state reads, undo) goes through it, so no
 * reader can be told a wrong page and believe it. Each answer's number and size are
 * checked against the request; a service numbering pages from 1 or cutting sizes
 * to its own maximum is detected (or known from the environment's wire profile);
 * records inserted or removed during a walk (the count changes, a page comes back
 * short before the end, an id shows up twice) are reported as drift. No id is
 * handed out twice within a walk. A service that answers its own way to the next
 * page (a `Link` rel=next, a next link or a cursor in the body) is followed by it,
 * as restish and the GitHub CLI do; one that ignores page numbers cannot be asked
 * for page N, and a walk that ends where the service counts more is an error.
 */
import { InvalidAnswerError, PageMismatchError, PagingDriftError, UsageError } from '../errors.js';
import type { AnsweredPage, NextPage } from './page-shapes.js';
import type { Page, PageWalker, PagingFacts } from './types.js';
import { idOf } from './objects.js';

/**
 * Reads the page the service calls `wirePage` at `size` (undefined: the service's
 * default), or, given `next`, the page the service's own link or cursor names.
 */
export type FetchPage<T> = (wirePage: number, size: number | undefined, next?: NextPage) => Promise<AnsweredPage<T>>;

export interface WalkOptions {
  /** Records a page asks for; undefined leaves it to the service. */
  size?: number;
  /** Finish without an error when the records changed during the walk (a warning instead). */
  allowDrift?: boolean;
  /** A line for a person: what the walker found out about the service, drift accepted. */
  notice?: (line: string) => void;
  /** Names the listing in messages, e.g. `determinations.list`. */
  label: string;
}

/** A record's identity for spotting repeats: its id's text, else none (records without an id are never dropped). */
function identity(record: unknown): string | undefined {
  const id = idOf(record);
  return typeof id === 'number' || typeof id === 'string' || typeof id === 'bigint' ? String(id) : undefined;
}

/** The same record at the head of two answers: the same id, or the same JSON when there is none. */
function sameRecord(a: unknown, b: unknown): boolean {
  const [x, y] = [identity(a), identity(b)];
  return x !== undefined || y !== undefined ? x === y : JSON.stringify(a) === JSON.stringify(b);
}

/**
 * Finds whether the service numbers pages from 0 or 1, or ignores page numbers,
 * with reads of one record: a service numbering from 1 answers its first page to
 * both `page=0` and `page=1` (Spring's one-indexed-parameters), or says it answered
 * page 1 when asked for page 0; one that ignores them (it pages by cursor) answers
 * the first record to `page=2` as well, where a service from 1 answers the second
 * or nothing. An empty listing tells nothing: 0, the spec's base, is assumed.
 */
export async function probeBase<T>(fetch: FetchPage<T>): Promise<0 | 1 | 'ignored'> {
  const zero = await fetch(0, 1);
  if (zero.number === 1) return 1;
  // Empty, or more than one record for a page of one (the listing is not paged): nothing to tell.
  if (zero.items.length !== 1) return 0;
  const one = await fetch(1, 1);
  if (one.number === 0) return 1;
  if (one.items.length === 0 || !sameRecord(one.items[0], zero.items[0])) return 0;
  const two = await fetch(2, 1);
  return two.items.length > 0 && sameRecord(two.items[0], zero.items[0]) ? 'ignored' : 1;
}

/**
 * The records a page of `answer`'s listing holds, read at `asked` (undefined: the
 * service's default, which the page's `size` says, else its count): a `size` saying
 * fewer, or (page 0 only: a later page holding fewer may be the end or drift) fewer
 * records than the counts say a first page of that size holds.
 */
function sizeHeld<T>(answer: AnsweredPage<T>, asked: number | undefined, index: number): number {
  const count = answer.items.length;
  const meant = asked ?? answer.size ?? Math.max(count, 1);
  if (answer.size !== undefined && answer.size < meant && answer.size >= count) return answer.size;
  if (index > 0 || count === 0) return meant;
  // A first page holds a full page when the count, `last` or the page count says more follow.
  const full =
    answer.totalElements !== undefined ? Math.min(meant, answer.totalElements) : answer.last === false || (answer.totalPages ?? 0) > 1 ? meant : count;
  return count < full ? count : meant;
}

/** One walk over a listing; `read` may be called for pages in any order and at once, after `settle`. */
export class PageWalk<T> implements PageWalker<T> {
  private total: number | undefined;
  private readonly seen = new Set<string>();
  private repeated = 0;
  private readonly drift: string[] = [];
  /** The records a page of this walk holds, once a page showed it (pageSize): later pages ask for exactly that. */
  private held: number | undefined;
  /** Records handed out (repeats left out). */
  private handed = 0;
  private settling: Promise<void> | undefined;
  /** Per page read, the way to the page after it that the service answered (undefined: none). */
  private readonly nextOf = new Map<number, Promise<NextPage | undefined>>();
  /** Links and cursors followed, so that one leading back is an error rather than a loop. */
  private readonly followed = new Set<string>();
  /** Where a linked listing stopped while the service counted more: the walk is not complete. */
  private unfinished: string | undefined;
  /** The first page this walk read: only a walk from page 0 can compare what it read with the count. */
  private began: number | undefined;

  constructor(
    private readonly fetch: FetchPage<T>,
    private readonly facts: PagingFacts,
    private readonly options: WalkOptions,
  ) {}

  /** Makes sure the page base is known (two reads of one record when the profile does not say it); once, however many reads wait for it. */
  settle(): Promise<void> {
    if (this.facts.base !== undefined || this.facts.follow === 'links') return Promise.resolve();
    this.settling ??= probeBase(this.fetch).then((base) => this.learnBase(base));
    return this.settling;
  }

  /**
   * Whether page N can be asked for by number: the profile's or an earlier probe's
   * word, else, where the pages read named a next link or cursor, the probe's (a
   * service naming none pages by number: its later pages are read so).
   */
  async numbered(): Promise<boolean> {
    if (this.facts.follow !== undefined || this.facts.base !== undefined) return this.facts.follow !== 'links';
    const named = await Promise.all(this.nextOf.values());
    if (named.every((next) => next === undefined)) return true;
    await this.settle();
    return this.facts.follow !== 'links';
  }

  private learnBase(base: 0 | 1 | 'ignored'): void {
    if (base === 'ignored') {
      this.facts.follow = 'links';
      this.options.notice?.('note: the service ignores page numbers; pla follows the next links or cursors it answers (`pla config detect` stores this)');
      return;
    }
    this.facts.base = base;
    if (base === 1)
      this.options.notice?.('note: the service numbers its pages from 1; pla asks for page n+1 (`pla config detect` stores this for the environment)');
  }

  /** The size a page asks for: what page 0 of this walk held, else the walk's size cut to the service's maximum when it has one. */
  private asked(): number | undefined {
    if (this.held !== undefined) return this.held;
    const { size } = this.options;
    const { cap } = this.facts;
    return size === undefined ? undefined : cap === undefined ? size : Math.min(size, cap);
  }

  /** Reads page `index` (zero-based, as pla counts), checked; its records not handed out before in this walk. */
  async read(index: number): Promise<Page<T>> {
    this.began ??= index;
    const link = index > 0 ? this.nextOf.get(index - 1) : undefined;
    const answered = link ? this.follow(index, link) : this.byNumber(index);
    this.nextOf.set(
      index,
      answered.then(
        ({ answer }) => answer.next,
        () => undefined,
      ),
    );
    const { answer, linked } = await answered;
    if (linked) return this.hand(index, answer, Math.max(this.held ?? answer.size ?? answer.items.length, 1), this.linkedLast(answer));
    const asked = this.asked();
    this.checkNumber(index, answer);
    const size = await this.pageSize(index, answer, asked);
    if (size === undefined) {
      this.nextOf.delete(index);
      return this.read(index);
    }
    return this.hand(index, answer, size, this.isLast(index, answer, index * size, size, asked));
  }

  /**
   * Page `index` by its number. Page 0 is the first page whatever the base (Spring
   * reads page=0 as the first page when one-indexed too); a later one needs the
   * base, and is refused on a service that ignores page numbers.
   */
  private async byNumber(index: number, walking = false): Promise<{ answer: AnsweredPage<T>; linked: boolean }> {
    if (index > 0) await this.settle();
    if (index > 0 && this.facts.follow === 'links') {
      // Reached from the page before, which named no next page although more follow: the rest cannot be read.
      if (walking)
        throw new InvalidAnswerError(
          `${this.options.label}: the service ignores page numbers and answered page ${index - 1} with no link or cursor to the next one, although more records follow`,
        );
      throw new UsageError(`${this.options.label}: the service ignores page numbers (it answers next links or cursors), so page ${index} cannot be asked for`, {
        hint: 'read from the first page: --all, or --max-items N',
      });
    }
    const answer = await this.fetch(index + (this.facts.base ?? 0), this.asked());
    return { answer, linked: false };
  }

  /** Page `index` by the link or cursor page `index - 1` answered; none: that page was the last, and this one is empty. */
  private async follow(index: number, link: Promise<NextPage | undefined>): Promise<{ answer: AnsweredPage<T>; linked: boolean }> {
    const next = await link;
    if (next === undefined) {
      if (this.facts.follow === 'links') return { answer: { items: [], shape: 'items', linked: true }, linked: true };
      return this.byNumber(index, true);
    }
    const key = JSON.stringify(next);
    if (this.followed.has(key)) throw new PageMismatchError(`${this.options.label}: the service's link to page ${index} leads to a page already read (${key})`);
    this.followed.add(key);
    return { answer: await this.fetch(index + (this.facts.base ?? 0), this.asked(), next), linked: true };
  }

  /** A page reached by a link is the last when it names no next; where the service counts more, the listing is unfinished. */
  private linkedLast(answer: AnsweredPage<T>): boolean {
    if (answer.next !== undefined) return false;
    const total = answer.totalElements ?? this.total;
    const read = this.handed + this.repeated + answer.items.length;
    if (total !== undefined && read < total && this.began === 0)
      this.unfinished = `the service counts ${total} records and its last page (no link to a next one) ends after ${read}`;
    return true;
  }

  /** Hands out page `index` of `answer`: drift noted, repeats left out. */
  private hand(index: number, answer: AnsweredPage<T>, size: number, last: boolean): Page<T> {
    const count = answer.items.length;

    if (answer.totalElements !== undefined) {
      if (this.total !== undefined && this.total !== answer.totalElements) {
        this.drift.push(`the listing counted ${this.total} records, then ${answer.totalElements} (page ${index})`);
      }
      this.total = answer.totalElements;
    }
    if (!last && count < size && answer.next === undefined) {
      this.drift.push(`page ${index} had ${count} records of ${size} but was not the last`);
    }
    const items = answer.items.filter((record) => {
      const id = identity(record);
      if (id === undefined) return true;
      if (this.seen.has(id)) {
        this.repeated += 1;
        return false;
      }
      this.seen.add(id);
      return true;
    });
    // Only repeats, while nothing says the records changed: the service ignores the page asked for.
    if (index > 0 && items.length === 0 && count > 0 && !last && this.drift.length === 0) {
      throw new PageMismatchError(`${this.options.label}: page ${index} holds only records of earlier pages: the service may not page this listing`, {
        hint: 'check the wire profile (pla config detect), or read it without --all',
      });
    }
    this.handed += items.length;
    const totalPages = answer.totalElements !== undefined ? Math.ceil(answer.totalElements / size) : answer.totalPages;
    return {
      items,
      number: index,
      size,
      ...(answer.totalElements !== undefined ? { totalElements: answer.totalElements } : {}),
      ...(totalPages !== undefined ? { totalPages } : {}),
      last,
    };
  }

  /** The answer's page number must be the one asked for, counted from 0 or (a one-based service echoing it) from 1. */
  private checkNumber(index: number, answer: AnsweredPage<T>): void {
    const { number } = answer;
    if (number === undefined || number === index) return;
    if (number === index + 1 && this.facts.base !== 0) {
      if (this.facts.base === undefined) this.learnBase(1);
      return;
    }
    throw new PageMismatchError(`${this.options.label}: asked for page ${index} (zero-based) and the service answered page ${number}`, {
      hint: 'the service may number pages differently: `pla config detect` finds out, `pla config set-wire page.base=1` says it',
      detail: answer,
    });
  }

  /**
   * The records a page of this walk holds: the size asked (asked none, the size the
   * page says), unless the service shows it cut that: a smaller `size`, or a page 0
   * holding fewer records than its counts say a page of that size holds. A cut is
   * learnt on page 0 and later pages ask for the size it held, so their offsets
   * agree. A later page read first proves the size when it is full (a cut page holds
   * fewer) or the service's maximum is known; a short one may be another size's
   * page, so page 0 is read at the same size to tell, and a cut refuses the page.
   */
  private async pageSize(index: number, answer: AnsweredPage<T>, asked: number | undefined): Promise<number | undefined> {
    const count = answer.items.length;
    // A bare array longer than a page is the whole listing (an endpoint that does not page).
    if (asked !== undefined && count > asked && !(answer.shape === 'array' && index === 0)) {
      throw new PageMismatchError(`${this.options.label}: asked for ${asked} records a page and the service answered ${count}`, { detail: answer.size });
    }
    if (this.held !== undefined) return this.held;
    const meant = asked ?? answer.size ?? Math.max(count, 1);
    // An empty page is right at any size a service may cut to: the records end before it either way.
    const proven = index === 0 || count === 0 || count >= meant || answer.shape === 'array' || (asked !== undefined && this.facts.cap !== undefined);
    const first = proven ? undefined : await this.fetch(this.facts.base ?? 0, asked);
    const held = (this.held = first ? sizeHeld(first, asked, 0) : sizeHeld(answer, asked, index));
    if (held >= meant) return held;
    if (index > 0 && asked !== undefined) {
      // The size asked is the user's to change: a usage error (2), not pla's bug (1).
      throw new UsageError(`${this.options.label}: the service answers at most ${held} records a page, so page ${index} of ${asked} cannot be read`, {
        hint: `ask for --size ${held} or less (page ${index} of ${asked} begins on page ${Math.floor((index * asked) / held)} of ${held}), or use --all`,
      });
    }
    this.facts.cap = held;
    this.options.notice?.(
      `note: the service answers at most ${held} records a page (asked for ${asked ?? `its default, ${meant}`}); pla asks for ${held} (\`pla config detect\` stores this)`,
    );
    // A later page read at the service's default was read at a size it cuts: it is read again at the size held.
    return index > 0 ? undefined : held;
  }

  /** Whether no page follows: the count (when given) decides, then `last`, the page count, a short or empty page. */
  private isLast(index: number, answer: AnsweredPage<T>, offset: number, size: number, asked: number | undefined): boolean {
    const count = answer.items.length;
    // A listing paged by links or cursors ends where the service gives no next.
    if (answer.linked) return this.linkedLast(answer);
    if (count === 0) return true;
    if (answer.totalElements !== undefined) return offset + count >= answer.totalElements;
    // A bare array says nothing but its length: a full page may have more after it.
    if (answer.shape === 'array') return count !== asked;
    if (answer.totalElements !== undefined) return offset + count >= answer.totalElements;
    if (answer.last !== undefined) return answer.last;
    if (answer.totalPages !== undefined) return index + 1 >= answer.totalPages;
    return count < size;
  }

  /**
   * Ends the walk: drift seen is an error unless allowed (then a warning). A walk
   * that read every page (`complete`) must also have handed out as many records as
   * the service counts.
   */
  finish({ complete = false }: { complete?: boolean } = {}): void {
    if (this.unfinished !== undefined)
      throw new InvalidAnswerError(`${this.options.label}: ${this.unfinished}: pla cannot read the rest of the listing`, {
        hint: 'the listing printed is incomplete; check the service, or the wire profile (pla doctor)',
      });
    const found = [...this.drift];
    if (this.repeated > 0) found.push(`${this.repeated} record${this.repeated === 1 ? '' : 's'} came back on a later page (listed once)`);
    if (complete && this.total !== undefined && this.handed !== this.total)
      found.push(`pla listed ${this.handed} records where the service counts ${this.total}`);
    if (found.length === 0) return;
    const what = `the records of ${this.options.label} changed while pla listed them: ${found.join('; ')}`;
    if (this.options.allowDrift) {
      this.options.notice?.(`warning: ${what}; records added or removed meanwhile may be missing (--allow-drift)`);
      return;
    }
    throw new PagingDriftError(`${what}; records added or removed meanwhile may be missing or out of date`, {
      hint: 'run it again when nothing else writes, or pass --allow-drift to accept a listing of a changing table; if nothing was writing, check the wire profile: pla doctor',
    });
  }
}
