/** Replaced by esbuild at build time (scripts/build.mjs); undefined when vitest runs the source. */
declare const __PLA_VERSION__: string | undefined;

/** The default `user-agent` header: `pla/<version>`. */
export function defaultUserAgent(): string {
  return `pla/${typeof __PLA_VERSION__ === 'string' ? __PLA_VERSION__ : 'dev'}`;
}
