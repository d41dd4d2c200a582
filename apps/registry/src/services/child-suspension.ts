import type { ChildRoute } from "@stream-registry/store";

/**
 * Why the child at a URL is not to be called, for ChildCalls: an admin here suspended it
 * (SUSPEND CHILD REGISTRY). Read from the routes every call reads anyway (kept a second), so
 * routing, LIVE lists, `_entities` and the discovery index all leave a suspended child alone.
 */
export function suspensionRefusal(
  routes: () => Promise<ChildRoute[]>,
  pathOf: (name: string) => string,
): (url: string) => Promise<string | undefined> {
  return async (url) => {
    const suspended = (await routes()).find((route) => route.url === url && route.suspended);
    if (!suspended) return undefined;
    const path = pathOf(suspended.name);
    return `the child registry ${path} is suspended here (an admin of this registry suspended it; RESUME CHILD REGISTRY "${path}" calls it again)`;
  };
}
