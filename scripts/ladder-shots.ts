import { tiltyardWith } from '../test/cli/run-cli.js';

/**
 * A small ladder for docs/img/ladder.png, played by the real CLI into the embedded database before
 * the server opens it (the embedded database has one process at a time): four built-ins in compact
 * windows, three deals at three seats, then a newcomer added and one entrant retired so the page
 * shows both. Returns the ladder's id.
 */
export async function playLadder(dataDir: string): Promise<string> {
  const cli = async (...args: string[]): Promise<string> => {
    const r = await tiltyardWith({ env: { TILTYARD_DATA_DIR: dataDir, DATABASE_URL: undefined } }, ...args);
    if (r.code !== 0) throw new Error(`tiltyard ${args.join(' ')}: ${r.stderr}`);
    return r.stdout;
  };
  const { ladder_id: id } = JSON.parse(await cli('ladder', 'create', '--name', 'Four built-ins', '--entrants', 'balanced,aggressor,turtle,random', '--seats', '3', '--compact', '--seed', '41', '--json')) as { ladder_id: string };
  await cli('ladder', 'run', id, '--games', '9', '--clock', 'logical');
  await cli('ladder', 'add', id, 'trickster');
  await cli('ladder', 'retire', id, 'random');
  return id;
}
