/** `topics list <service> [--lang]`: topics, with the caption in one language when asked. */
import { renderRows } from '../../io/output/index.js';
import { withContext } from '../context.js';
import type { Invocation } from '../invocation.js';

interface Topic extends Record<string, unknown> {
  captionValues?: Array<{ langCode?: string; value?: string }>;
}

/** `topics list <service> [--lang]`. */
export function list(invocation: Invocation<[service: string], { lang?: string }>): Promise<void> {
  return withContext(invocation, async (ctx) => {
    const [service] = ctx.args;
    const { lang } = ctx.opts;
    const { data } = await (await ctx.client()).call<Topic[]>('topics.list', { params: { service }, signal: ctx.signal });
    const topics = Array.isArray(data) ? data : [];
    // The service has no language parameter: the choice is made here, on the captions.
    const shown = lang
      ? topics.map((t) => {
          const captionValues = (t.captionValues ?? []).filter((c) => c.langCode === lang);
          return { ...t, caption: captionValues[0]?.value, captionValues };
        })
      : topics;
    await renderRows(shown, ctx.output);
  });
}
