/** Environments and keys: the conf-backed store, connection resolution, key masking. */
export { openConfig } from './conf-store.js';
export { resolveConnection } from './resolve-connection.js';
export { maskKey } from '../contract/secrets.js';
export { configDir } from './config-dir.js';
export * from './types.js';
