export type { View } from '../game/view-bridge.js';
export type { WireEvent as WireEventLike } from '../game/history.js';
