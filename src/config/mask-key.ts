/**
 * Masks an API key for display: `••••` and its last 4 characters. Keys shorter
 * than 12 characters are masked whole, since their last 4 would give away too much.
 * Kept free of imports: the CLI and the server call it everywhere.
 */
export function maskKey(key: string): string {
  return key.length >= 12 ? `••••${key.slice(-4)}` : '••••';
}
