#!/usr/bin/env node
// Tiny launcher: everything lives in the bundled CLI (npm ci builds it).
import { main } from '../dist/cli.js';

await main(process.argv);
