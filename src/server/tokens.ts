/** Injection tokens for the ports the server's services take in their constructors. */
export const STORE = Symbol('EventStore');
export const SETTINGS = Symbol('ServerSettings');
export const LOGGER = Symbol('JsonLogger');
