#!/usr/bin/env node
// The `tiltyard` command. dist/ is built by `npm install` (the package's prepare script).
import { runCli } from '../dist/cli/main.js';

await runCli();
