import type { ComponentChildren } from 'preact';
import { useRef } from 'preact/hooks';

type Props<T extends string> = {
  /** Prefix of the tabs' and panel's ids (unique on the page). */
  id: string;
  tabs: readonly T[];
  label: (tab: T) => string;
  selected: T;
  select: (tab: T) => void;
  /** The selected tab's panel. */
  children: ComponentChildren;
};

/**
 * The WAI-ARIA tabs pattern: a `tablist` of `tab`s (`aria-selected`, one tab stop: the selected
 * tab's) and the `tabpanel` they label. ←/→ move to the previous/next tab and Home/End to the
 * first/last, selecting it (automatic activation: panels are cheap to switch).
 *
 * @example <TabList id="analysis" tabs={['a', 'b']} label={(t) => t.toUpperCase()} selected={tab} select={setTab}>{panel}</TabList>
 */
export function TabList<T extends string>({ id, tabs, label, selected, select, children }: Props<T>) {
  const list = useRef<HTMLDivElement>(null);
  const tabId = (t: T) => `${id}-tab-${t}`;
  const onKeyDown = (e: KeyboardEvent) => {
    if (e.metaKey || e.ctrlKey || e.altKey) return;
    const at = tabs.indexOf(selected);
    const to = e.key === 'ArrowRight' ? (at + 1) % tabs.length : e.key === 'ArrowLeft' ? (at - 1 + tabs.length) % tabs.length : e.key === 'Home' ? 0 : e.key === 'End' ? tabs.length - 1 : null;
    if (to === null) return;
    // These keys also step the game's cursor (a listener on window): on a tab they are the tab's.
    e.preventDefault();
    e.stopPropagation();
    const next = tabs[to]!;
    select(next);
    list.current?.querySelector<HTMLElement>(`#${CSS.escape(tabId(next))}`)?.focus();
  };
  return (
    <>
      <div class="tabs" role="tablist" ref={list} onKeyDown={onKeyDown}>
        {tabs.map((t) => (
          <button key={t} type="button" role="tab" id={tabId(t)} aria-selected={t === selected} aria-controls={`${id}-panel`} tabIndex={t === selected ? 0 : -1} onClick={() => select(t)} data-testid={`tab-${t}`}>
            {label(t)}
          </button>
        ))}
      </div>
      <div role="tabpanel" id={`${id}-panel`} aria-labelledby={tabId(selected)}>
        {children}
      </div>
    </>
  );
}
