/** Environments and keys: the conf-backed store, connection resolution, key masking. */
export { openConfig, DEFAULT_ENV, DEFAULT_BASE_URLS, type OpenConfigOptions } from './conf-store.js';
export { resolveConnection } from './resolve-connection.js';
export { maskKey } from './mask-key.js';
export { configDir } from './config-dir.js';
export { checkEnvName, checkBaseUrl, checkApiKey } from './validate.js';
export * from './types.js';
