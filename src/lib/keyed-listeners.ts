/**
 * Listeners grouped by a key (a game id), a key dropped with its last listener so that `has`
 * tells whether anybody listens.
 *
 * @example const l = new KeyedListeners<number>(); const off = l.add('g1', console.log); l.emit('g1', 3); off()
 */
export class KeyedListeners<T> {
  private readonly byKey = new Map<string, Set<(value: T) => void>>();

  /** Adds a listener; returns what removes it. */
  add(key: string, listener: (value: T) => void): () => void {
    let set = this.byKey.get(key);
    if (!set) this.byKey.set(key, (set = new Set()));
    set.add(listener);
    return () => {
      set.delete(listener);
      if (set.size === 0) this.byKey.delete(key);
    };
  }

  has(key: string): boolean {
    return this.byKey.has(key);
  }

  /** Calls the key's listeners in the order they were added. */
  emit(key: string, value: T): void {
    for (const l of this.byKey.get(key) ?? []) l(value);
  }
}
