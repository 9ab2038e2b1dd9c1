import { agentCheckCommand } from './agent-check.js';
import type { Command } from './command.js';
import { counterfactualCommand } from './counterfactual.js';
import { exportCommand } from './export.js';
import { forkCommand } from './fork.js';
import { gamesCommand } from './games.js';
import { ladderCommand } from './ladder.js';
import { playCommand } from './play.js';
import { positionsCommand } from './positions.js';
import { replayCommand } from './replay.js';
import { reportCommand } from './report.js';
import { resumeCommand } from './resume.js';
import { runCommand } from './run.js';
import { serveCommand } from './serve.js';
import { simulateCommand } from './simulate.js';
import { standingsCommand } from './standings.js';
import { storeCommand } from './store.js';
import { tournamentCommand } from './tournament.js';
import { tournamentsCommand } from './tournaments.js';
import { verifyCommand } from './verify.js';
import { winprobCommand } from './winprob.js';
import { workerCommand } from './worker.js';

/** Every `tiltyard` command, in the order usage lists them: the server, in-memory play, then the store. */
export const COMMANDS: readonly Command[] = [serveCommand, playCommand, simulateCommand, runCommand, gamesCommand, resumeCommand, forkCommand, counterfactualCommand, replayCommand, winprobCommand, verifyCommand, tournamentCommand, tournamentsCommand, standingsCommand, ladderCommand, reportCommand, exportCommand, positionsCommand, storeCommand, agentCheckCommand, workerCommand];
