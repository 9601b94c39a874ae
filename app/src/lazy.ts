/**
 * `React.lazy` for screens in chunks of their own: when a chunk fails to load (most often a deploy
 * replaced it while this page was open), the page reloads once to get the new build instead of
 * showing an error; a second failure in a row is shown as the error it is.
 */
import { type ComponentType, type LazyExoticComponent, lazy } from 'react';

const RELOADED = 'bindery:chunk-reloaded';

export function lazyScreen<T extends ComponentType>(load: () => Promise<{ default: T }>): LazyExoticComponent<T> {
  return lazy(async () => {
    try {
      const loaded = await load();
      sessionStorage.removeItem(RELOADED);
      return loaded;
    } catch (error) {
      if (sessionStorage.getItem(RELOADED)) throw error;
      sessionStorage.setItem(RELOADED, '1');
      window.location.reload();
      return new Promise<never>(() => undefined);
    }
  });
}
