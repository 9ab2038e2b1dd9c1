import { agentCheckCommand } from './agent-check.js';
import type { Command } from './command.js';
import { gamesCommand } from './games.js';
import { playCommand } from './play.js';
import { replayCommand } from './replay.js';
import { resumeCommand } from './resume.js';
import { runCommand } from './run.js';
import { simulateCommand } from './simulate.js';
import { verifyCommand } from './verify.js';

/** Every `tiltyard` command, in the order usage lists them: in-memory play first, then the store. */
export const COMMANDS: readonly Command[] = [playCommand, simulateCommand, runCommand, gamesCommand, resumeCommand, replayCommand, verifyCommand, agentCheckCommand];
