import { checkName, ErrorCode, userError, type UserError } from "@stream-registry/core";
import {
  createApiToken,
  listApiTokens,
  revokeApiToken,
  writeTransaction,
  type ApiTokenRecord,
  type Database,
} from "@stream-registry/store";
import type { Access } from "@stream-registry/core";
import type { Caller } from "../services/deps.ts";
import { pushIf, throwIfAny, UserErrors } from "../services/user-errors.ts";
import { hashApiToken, newApiTokenValue } from "./api-token-value.ts";

const MAX_GROUPS = 64;
const MAX_GROUP_LENGTH = 256;
const MAX_EXPIRES_IN_DAYS = 3_650;
const DAY_MS = 86_400_000;

export interface CreateApiTokenInput {
  name: string;
  groups?: string[] | null;
  expiresInDays?: number | null;
}

/**
 * API tokens for automation (CREATE TOKEN, REVOKE TOKEN, SHOW TOKENS): a token's value is made
 * here, given back once, and stored as its hash only. Admins of this registry's namespace only.
 */
export class ApiTokenService {
  constructor(
    private readonly db: Database,
    /** Called after a revocation: verifiers keep no revoked token in memory. */
    private readonly revoked: () => void,
  ) {}

  list(access: Access): Promise<ApiTokenRecord[]> {
    access.require("admin", "", "listing API tokens");
    return listApiTokens(this.db.prisma);
  }

  /** Makes a token; its value (`secret`) is in the answer and nowhere else. */
  async create(
    input: CreateApiTokenInput,
    { actor, access }: Caller,
  ): Promise<{ token: ApiTokenRecord; secret: string }> {
    access.require("admin", "", "making API tokens");
    const errors: UserError[] = [];
    pushIf(errors, checkName(input.name, ["input", "name"], "token name"));
    const groups = input.groups ?? [];
    if (groups.length > MAX_GROUPS) {
      errors.push(userError(ErrorCode.INVALID_INPUT, ["input", "groups"], `at most ${MAX_GROUPS} groups`));
    }
    for (const [i, group] of groups.entries()) {
      if (group.length === 0 || group.length > MAX_GROUP_LENGTH || /\p{Cc}/u.test(group)) {
        errors.push(
          userError(
            ErrorCode.INVALID_INPUT,
            ["input", "groups", String(i)],
            `a group name has 1 to ${MAX_GROUP_LENGTH} characters and no control characters`,
          ),
        );
      }
    }
    const days = input.expiresInDays;
    if (
      days !== null &&
      days !== undefined &&
      (!Number.isInteger(days) || days < 1 || days > MAX_EXPIRES_IN_DAYS)
    ) {
      errors.push(
        userError(
          ErrorCode.INVALID_INPUT,
          ["input", "expiresInDays"],
          `expiresInDays must be a whole number of days from 1 to ${MAX_EXPIRES_IN_DAYS}`,
        ),
      );
    }
    throwIfAny(errors);
    const secret = newApiTokenValue();
    const now = new Date();
    const made = await writeTransaction(this.db.prisma, (tx) =>
      createApiToken(
        tx,
        {
          name: input.name,
          hash: hashApiToken(secret),
          groups: [...new Set(groups)],
          createdBy: actor,
          expiresAt: days ? new Date(now.getTime() + days * DAY_MS) : null,
        },
        now,
      ),
    );
    if (made === "taken") {
      throw new UserErrors([
        userError(
          ErrorCode.ALREADY_EXISTS,
          ["input", "name"],
          `a token named ${input.name} exists and is in use: revoke it first (REVOKE TOKEN "${input.name}")`,
        ),
      ]);
    }
    return { token: made, secret };
  }

  /** Revokes a token at once; a token revoked already stays as it was. */
  async revoke(name: string, { actor, access }: Caller): Promise<ApiTokenRecord> {
    access.require("admin", "", "revoking API tokens");
    const revoked = await writeTransaction(this.db.prisma, (tx) => revokeApiToken(tx, name, actor));
    if (!revoked) {
      throw new UserErrors([
        userError(ErrorCode.NOT_FOUND, ["input", "name"], `there is no token named ${name}`),
      ]);
    }
    this.revoked();
    return revoked;
  }
}
