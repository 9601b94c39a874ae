/**
 * Loading large, rarely used dependencies on first use instead of at start-up (startup time and
 * idle memory): `lazyAsync(() => import('x').then((m) => m.default))` stands for the module's
 * API object when every member used is an async function. Its first call loads the module.
 */
export function lazyAsync<T extends object>(load: () => Promise<T>): T {
  let loading: Promise<T> | undefined;
  return new Proxy({} as T, {
    get(_target, name) {
      return async (...args: unknown[]) => {
        loading ??= load();
        const api = (await loading) as Record<string | symbol, (...a: unknown[]) => unknown>;
        const member = api[name];
        if (typeof member !== 'function') throw new TypeError(`${String(name)} is not a function of the loaded module`);
        return Reflect.apply(member, api, args);
      };
    },
  });
}
