/** Version of every Tiltyard game payload (seed 003 §9): minor = compatible additions, major = migration. */
export const SCHEMA_VERSION = '1.0';
