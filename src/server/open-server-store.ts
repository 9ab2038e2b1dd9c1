import { openStore, type EventStore } from '../store/index.js';
import type { ServerSettings } from './config.js';

/**
 * The server's store: DATABASE_URL, else the embedded database in the data folder, which the
 * server shares with the CLI on its socket (see store/pglite-share.ts). Kept apart from
 * create-server so `serve` can start opening it while Nest's code still loads.
 */
export function openServerStore(settings: ServerSettings): Promise<EventStore> {
  return openStore({
    ...(settings.databaseUrl ? { databaseUrl: settings.databaseUrl } : {}),
    ...(settings.dataDir ? { dataDir: settings.dataDir } : {}),
    shareEmbedded: true,
  });
}
