/**
 * Redirects are never followed by the registry's outbound calls: REGISTRY_CONNECT_ALLOW checks the
 * address a caller gave, and a redirect would send the call (its body, its credentials) to one
 * nobody checked (docs/security.md, "Where the registry connects").
 */

/** Whether an HTTP status is a redirect (3xx). */
export function isRedirectStatus(status: number): boolean {
  return status >= 300 && status <= 399;
}

/**
 * The message for a redirect that was not followed: what answered, where it pointed (its host and
 * port only: a Location may carry credentials or tokens in its path or query) and what to do.
 * `what` names the service, e.g. "schema registry", "registry".
 */
export function redirectRefusal(
  what: string,
  url: string,
  status: number,
  location: string | undefined,
): string {
  return (
    `${what} at ${originOf(url) ?? url} answered a redirect (HTTP ${status}${whereTo(url, location)}): ` +
    `redirects are not followed; configure the final URL`
  );
}

function whereTo(url: string, location: string | undefined): string {
  if (location === undefined || location === "") return "";
  const target = URL.canParse(location, url) ? new URL(location, url) : undefined;
  return target ? ` to ${target.host}` : " to an address that is not a URL";
}

/** An http(s) URL without its user info, query and fragment: scheme, host, port and path. */
function originOf(url: string): string | undefined {
  if (!URL.canParse(url)) return undefined;
  const parsed = new URL(url);
  return `${parsed.protocol}//${parsed.host}${parsed.pathname === "/" ? "" : parsed.pathname}`;
}
