/** Memory figures of a running process, from Linux's /proc, for tests that bound what a request may cost a server. */
import { readFile } from 'node:fs/promises';

/** A kB figure of /proc/<pid>/status (`VmHWM` = the peak resident set so far), in bytes. */
export async function procStatus(pid: number, field: 'VmHWM' | 'VmRSS'): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  const match = new RegExp(`^${field}:\\s+(\\d+) kB$`, 'm').exec(status);
  if (!match?.[1]) throw new Error(`no ${field} in /proc/${pid}/status`);
  return Number(match[1]) * 1024;
}
