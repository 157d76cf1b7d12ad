import { useEffect } from 'react';

/**
 * The browser tab's title: '{screen} · {app name}' (docs/product.md#app-shell), so tabs, history
 * and bookmarks say which screen they hold. The route table names each screen; a screen may name
 * itself more precisely (a repository's detail page shows the repository), and that wins while it
 * is mounted, whatever order React runs the effects in.
 */
type Entry = { title: string; precise: boolean };
const entries = new Set<Entry>();
let appName = '';

function apply() {
  // The newest precise title, else the newest route title.
  let chosen: Entry | undefined;
  for (const entry of entries) if (entry.precise || !chosen?.precise) chosen = entry;
  document.title = chosen ? `${chosen.title} · ${appName}` : appName;
}

/** The app's name, from `/version` (the shell sets it). */
export function useAppNameTitle(name: string) {
  useEffect(() => {
    appName = name;
    apply();
  }, [name]);
}

/**
 * Names the screen in the tab title while mounted. `precise` titles (a screen's own) win over
 * the route table's; null leaves the title as it is (a screen still loading its name).
 */
export function useScreenTitle(title: string | null | undefined, { precise = true } = {}) {
  useEffect(() => {
    if (!title) return;
    const entry = { title, precise };
    entries.add(entry);
    apply();
    return () => {
      entries.delete(entry);
      apply();
    };
  }, [title, precise]);
}
