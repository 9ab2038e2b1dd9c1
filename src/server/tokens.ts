/** Injection tokens for the ports the server's services take in their constructors. */
export const STORE = Symbol('EventStore');
export const SETTINGS = Symbol('ServerSettings');
export const LOGGER = Symbol('JsonLogger');
/** The scale-out queue (a GameQueue), or null when games run in this process (no REDIS_URL). */
export const GAME_QUEUE_PORT = Symbol('GameQueue');
/** The wall clock the spectator hold-back reads (`() => ms`); absent: Date.now. Tests inject a fake one. */
export const SPECTATE_CLOCK = Symbol('SpectateClock');
