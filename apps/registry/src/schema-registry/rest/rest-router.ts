import { RestError } from "./rest-error.ts";
import type { Route } from "./rest-route.ts";

/** Where a request goes: a route with its decoded parameters, or why none. */
export type RouteMatch = { route: Route; params: Record<string, string> };

/**
 * Matches `path` (after the prefix) against the routes' paths, segment by segment; a parameter
 * takes one segment, percent-decoded (a subject may hold "/" as %2F). Throws 404 when no path
 * matches, 405 when one does but not with this method.
 */
export function matchRoute(routes: readonly Route[], method: string, path: string): RouteMatch {
  const segments = split(path).map(decode);
  const matches = routes.flatMap((route) => {
    const params = matchPath(split(route.path), segments);
    return params ? [{ route, params }] : [];
  });
  const match = matches.find(({ route }) => route.method === method);
  if (match) return match;
  if (matches.length > 0) {
    const allowed = matches.map(({ route }) => route.method).join(", ");
    throw new RestError(405, 405, `HTTP 405 Method Not Allowed: ${method} is not one of ${allowed}`, {
      allow: allowed,
    });
  }
  throw new RestError(404, 404, "HTTP 404 Not Found");
}

function split(path: string): string[] {
  return path.split("/").filter((segment, i, all) => !(segment === "" && (i === 0 || i === all.length - 1)));
}

function matchPath(pattern: string[], segments: string[]): Record<string, string> | undefined {
  if (pattern.length !== segments.length) return undefined;
  const params: Record<string, string> = {};
  for (const [i, part] of pattern.entries()) {
    const segment = segments[i]!;
    if (part.startsWith(":")) params[part.slice(1)] = segment;
    else if (part !== segment) return undefined;
  }
  return params;
}

function decode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    throw new RestError(
      400,
      400,
      `The path segment ${JSON.stringify(segment.slice(0, 80))} is not valid percent-encoding`,
    );
  }
}
