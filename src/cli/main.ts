declare const __PLA_VERSION__: string;

/** Entry point of the bundled CLI (placeholder until the command tree lands). */
export async function main(argv: string[]): Promise<void> {
  if (argv[2] === '--version') process.stdout.write(`${__PLA_VERSION__}\n`);
}
