/**
 * The CA file of an environment (`pla config set-ca`): PEM certificates the client
 * trusts for that environment's service, besides Node's own roots.
 */
import { readFile } from 'node:fs/promises';
import { UsageError } from '../errors.js';

/** Reads a CA file; a missing or non-PEM file is a usage error naming the fix. */
export async function readCaFile(path: string, env: string): Promise<string> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    throw new UsageError(`cannot read the CA file ${path} of environment ${env}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`, {
      cause: error,
      hint: `point it at a PEM file: pla config set-ca <file> --env ${env} (or --unset)`,
    });
  }
  if (!text.includes('-----BEGIN CERTIFICATE-----')) {
    throw new UsageError(`the CA file ${path} of environment ${env} holds no PEM certificate (-----BEGIN CERTIFICATE-----)`, {
      hint: 'convert a DER file first: openssl x509 -inform der -in ca.cer -out ca.pem',
    });
  }
  return text;
}
