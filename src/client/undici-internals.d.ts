// The client imports undici's Agent and RetryHandler from their own modules rather
// than from the package index, which loads fetch, WebSocket, caches and more and
// would roughly triple the import cost of a CLI call. Those paths are not part of
// undici's published interface, so package.json pins undici to an exact version
// (docs/startup.md). These declarations give those modules the types the package
// publishes for the same classes.
declare module 'undici/lib/dispatcher/agent.js' {
  import type { Agent } from 'undici';
  const AgentClass: typeof Agent;
  export default AgentClass;
}

declare module 'undici/lib/handler/retry-handler.js' {
  import type { RetryHandler } from 'undici';
  const RetryHandlerClass: typeof RetryHandler;
  export default RetryHandlerClass;
}

declare module 'undici/lib/handler/unwrap-handler.js' {
  import type { Dispatcher } from 'undici';
  /**
   * Adapts a handler of undici's newer API (`onRequestStart`…, as RetryHandler is)
   * to the older one the connection calls, which also says when the request was
   * written (`onRequestSent`).
   */
  class UnwrapHandler {
    constructor(handler: Dispatcher.DispatchHandler);
  }
  export default UnwrapHandler;
}
