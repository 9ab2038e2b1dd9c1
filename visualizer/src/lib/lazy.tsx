import type { ComponentType, JSX } from 'preact';
import { useEffect, useState } from 'preact/hooks';

/**
 * A component whose code is fetched the first time it renders (its own chunk: Vite splits at the
 * dynamic import), showing `fallback` meanwhile; later renders are immediate. preact/compat's
 * `lazy` would do the same but compat patches every vnode globally (onChange becomes onInput…).
 *
 * @example const EmotionPanel = lazyComponent(() => import('./emotion-panel.js').then((m) => m.EmotionPanel));
 */
export function lazyComponent<P extends object>(
  load: () => Promise<ComponentType<P>>,
  fallback: () => JSX.Element = () => <p aria-busy="true">Loading…</p>,
): ComponentType<P> {
  let loaded: ComponentType<P> | null = null;
  let loading: Promise<ComponentType<P>> | null = null;
  return function Lazy(props: P) {
    const [, setReady] = useState(false);
    const [failed, setFailed] = useState<string | null>(null);
    useEffect(() => {
      if (loaded) return;
      let gone = false;
      loading ??= load().then((c) => (loaded = c));
      loading.then(
        () => !gone && setReady(true),
        (e: unknown) => {
          // A chunk that did not arrive (a new deploy, the network): the next render asks again.
          loading = null;
          if (!gone) setFailed(e instanceof Error ? e.message : String(e));
        },
      );
      return () => {
        gone = true;
      };
    }, []);
    const C = loaded;
    if (C) return <C {...props} />;
    return failed ? (
      <p class="error" role="alert">
        Could not load this part of the page ({failed}); reload to try again.
      </p>
    ) : (
      fallback()
    );
  };
}
