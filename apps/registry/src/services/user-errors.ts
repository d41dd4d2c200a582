import { ErrorCode, isFaultCode, RegistryError, type UserError } from "@stream-registry/core";

/** Expected failures of one mutation: reported in its payload's `userErrors`; nothing was changed. */
export class UserErrors extends Error {
  constructor(readonly errors: UserError[]) {
    super(errors.map((e) => e.message).join("; "));
    this.name = "UserErrors";
  }
}

export function throwIfAny(errors: UserError[]): void {
  if (errors.length > 0) throw new UserErrors(errors);
}

export function pushIf(errors: UserError[], error: UserError | undefined): void {
  if (error) errors.push(error);
}

/** Runs a check that may throw an expected failure, collecting it instead, so that all are reported. */
export function collect<T>(errors: UserError[], check: () => T): T | undefined {
  try {
    return check();
  } catch (error) {
    const found = asUserErrors(error);
    if (!found) throw error;
    errors.push(...found);
    return undefined;
  }
}

/** The user errors an expected failure stands for, or undefined for a fault. */
export function asUserErrors(error: unknown): UserError[] | undefined {
  if (error instanceof UserErrors) return error.errors;
  // Faults (5xx: an outage, a child that did not answer, a bug) are GraphQL errors, never userErrors;
  // so is a refusal for want of a role (FORBIDDEN, 403): it is about the caller, not the input.
  if (error instanceof RegistryError && !isFaultCode(error.code) && error.code !== ErrorCode.FORBIDDEN)
    return [error.toUserError()];
  return undefined;
}
