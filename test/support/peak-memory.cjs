// Preloaded into a CLI run by tests (`node --require peak-memory.cjs bin/pla.js …`):
// writes the process's peak resident memory in bytes to the file named by
// PLA_TEST_PEAK_FILE when it exits, however it exits short of a kill.
const { writeFileSync } = require('node:fs');
const file = process.env.PLA_TEST_PEAK_FILE;
if (file) process.on('exit', () => writeFileSync(file, String(process.resourceUsage().maxRSS * 1024)));
