/** `pla doctor`: checks the connection to the service step by step. */
import { runs } from '../src/cli/invocation.js';
import { examples } from './options.js';
import { tree } from './tree.js';

/** Declares `pla doctor`; the checks load only when it runs. */
export function createDoctorCommand() {
  const command = tree('doctor').description(
    'check config, environment, proxy, DNS, TCP, TLS, the service, the key, clock and latency; ✓/✗ with a hint each (-o json)',
  );
  examples(command, 'pla doctor', 'pla doctor -o json', 'HTTPS_PROXY=http://proxy.corp.example:3128 pla -e production doctor');
  return runs(command, async () => (await import('../src/cli/handlers/doctor.js')).doctor);
}
