/**
 * Whether the database compares strings by code point, as the JSON-file store does.
 * jsonb compares strings with the database's default collation, and jsonb takes no
 * `COLLATE`: on a database made with a language's collation (en_US.UTF-8, ICU), a
 * sort by a text field orders `a, arr, B` where the file store (and a database made
 * with the C locale) orders `B, a, arr`. The server still runs on such a database,
 * but says so at start and at `pla server migrate` (see docs/store.md).
 */
import type pg from 'pg';

/** The default collation of a database, as `pg_database` records it (columns differ between PostgreSQL versions). */
interface DatabaseLocale {
  datname: string;
  datcollate?: string | null;
  /** 'c' libc, 'i' ICU (15+), 'b' builtin (17+). */
  datlocprovider?: string | null;
  /** The ICU or builtin locale: `daticulocale` in 15 and 16, `datlocale` from 17. */
  daticulocale?: string | null;
  datlocale?: string | null;
}

/** libc locales whose collation is code point order (glibc's C.UTF-8 is defined so). */
const CODE_POINT_LIBC = new Set(['C', 'POSIX', 'C.UTF-8', 'C.utf8']);

/**
 * A warning naming the database's collation when it does not order strings by code
 * point; undefined when it does (libc C/POSIX/C.UTF-8, or the builtin provider).
 */
export async function stringOrderWarning(run: (text: string) => Promise<pg.QueryResult>): Promise<string | undefined> {
  const { rows } = await run('SELECT to_jsonb(d) AS locale FROM pg_database d WHERE datname = current_database()');
  const locale = (rows[0] as { locale: DatabaseLocale } | undefined)?.locale;
  if (!locale) return undefined;
  const provider = locale.datlocprovider ?? 'c';
  if (provider === 'b') return undefined; // the builtin provider sorts by code point, whatever its locale
  if (provider === 'c' && CODE_POINT_LIBC.has(locale.datcollate ?? '')) return undefined;
  const collation = provider === 'i' ? `ICU locale ${locale.datlocale ?? locale.daticulocale ?? '?'}` : `libc collation ${locale.datcollate ?? '?'}`;
  return (
    `store: database ${locale.datname} sorts strings by its ${collation}, not by code point as the JSON-file store does: ` +
    `pages sorted by a text field differ between the two stores (e.g. a, arr, B rather than B, a, arr), and so do string ranges. ` +
    `For the same order, create the database with the C locale: CREATE DATABASE ${locale.datname} TEMPLATE template0 LOCALE 'C' ENCODING 'UTF8' (see docs/store.md)`
  );
}
