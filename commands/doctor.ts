/** `pla doctor`: checks the connection to the service step by step. */
import { Command } from 'commander';
import { declareAction } from './actions.js';
import { examples } from './options.js';

/** Declares `pla doctor`; the checks load only when it runs. */
export function createDoctorCommand(): Command {
  const command = new Command('doctor').description(
    'check config, environment, proxy, DNS, TCP, TLS, the service, the key, clock and latency; ✓/✗ with a hint each (-o json)',
  );
  examples(command, 'pla doctor', 'pla doctor -o json', 'HTTPS_PROXY=http://proxy.corp.example:3128 pla -e production doctor');
  return declareAction(command, 'doctor.run');
}
