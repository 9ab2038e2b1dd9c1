import type { Command } from './command.js';
import { playCommand } from './play.js';
import { simulateCommand } from './simulate.js';

/** Every `tiltyard` command, in the order usage lists them. New commands (run, replay, …) go here. */
export const COMMANDS: readonly Command[] = [playCommand, simulateCommand];
