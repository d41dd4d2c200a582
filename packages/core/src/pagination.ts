import { ErrorCode, RegistryError } from "./errors.ts";

export const DEFAULT_PAGE_SIZE = 50;
/** Bounds the rows one request can pull from the database and the provider. */
export const MAX_PAGE_SIZE = 500;

/** Resolves a connection's `first` argument; 0 is allowed, as Relay uses it to ask for page info only. */
export function checkPageSize(first: number | null | undefined, field?: string[]): number {
  if (first === null || first === undefined) return DEFAULT_PAGE_SIZE;
  const path = field ?? ["first"];
  const name = path.at(-1) ?? "first";
  if (!Number.isInteger(first) || first < 0 || first > MAX_PAGE_SIZE) {
    throw new RegistryError(
      ErrorCode.INVALID_INPUT,
      `${name} must be an integer from 0 to ${MAX_PAGE_SIZE} (the maximum page size), got ${first}`,
      path,
    );
  }
  return first;
}
