/**
 * `--query`: a JMESPath expression applied to a command's output before it is
 * rendered, as `aws --query` does (the expression language of
 * @jmespath-community/jmespath, the maintained JavaScript implementation). A list
 * is queried as one array, so `--all --query` holds every record first.
 */
import { UsageError } from '../../errors.js';

type Jmespath = typeof import('@jmespath-community/jmespath');

let library: Promise<Jmespath> | undefined;
const load = (): Promise<Jmespath> => (library ??= import('@jmespath-community/jmespath'));

/** Throws a UsageError (exit 2) naming what is wrong with `expression`; called before any request. */
export async function checkQuery(expression: string): Promise<void> {
  const { compile } = await load();
  try {
    compile(expression);
  } catch (error) {
    // `key=value` is what `pla api --query` took before it meant JMESPath.
    const hint = /^[\w.-]+=[^=]/.test(expression)
      ? 'query parameters of `pla api` are --param key=value; --query is a JMESPath expression on the output'
      : `a JMESPath expression, e.g. --query "[?status=='ACTIVE'].id" (https://jmespath.org)`;
    throw new UsageError(`--query ${expression}: ${error instanceof Error ? error.message : String(error)}`, { hint });
  }
}

/** The result of `expression` on `data` (the output as JSON would print it). */
export async function runQuery(expression: string, data: unknown): Promise<unknown> {
  const { search } = await load();
  return search(data as Parameters<Jmespath['search']>[0], expression);
}
