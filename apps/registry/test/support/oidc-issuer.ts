import { randomUUID } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { exportJWK, generateKeyPair, SignJWT, type CryptoKey, type JWK, type JWTPayload } from "jose";

/** An OIDC issuer in this process: discovery document, JWKS, and tokens signed with its key. */
export interface TestIssuer extends AsyncDisposable {
  /** Its URL, as its tokens' `iss` says. */
  issuer: string;
  /** A token signed with its key: `sub` alice, `aud` the given one, an hour to live, unless `claims` say otherwise. */
  sign(claims?: JWTPayload & { aud?: string | string[] }, options?: SignOptions): Promise<string>;
  /** How many times its keys were asked for. */
  jwksRequests(): number;
}

export interface SignOptions {
  /** Signs with this key instead (a forgery), under the issuer's key id unless `kid` is given. */
  key?: CryptoKey;
  kid?: string;
  alg?: string;
}

/** Starts an issuer on a free port of 127.0.0.1 with one RS256 key (kid "k1"). */
export async function startTestIssuer(audience: string): Promise<TestIssuer> {
  const { privateKey, publicKey } = await generateKeyPair("RS256");
  const jwk: JWK = { ...(await exportJWK(publicKey)), kid: "k1", alg: "RS256", use: "sig" };
  let issuer = "";
  let jwksRequests = 0;
  const server: Server = createServer((req, res) => {
    const send = (value: unknown) => {
      res.setHeader("content-type", "application/json");
      res.end(JSON.stringify(value));
    };
    if (req.url === "/.well-known/openid-configuration") return send({ issuer, jwks_uri: `${issuer}/jwks` });
    if (req.url === "/jwks") {
      jwksRequests += 1;
      return send({ keys: [jwk] });
    }
    res.statusCode = 404;
    res.end();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    issuer,
    jwksRequests: () => jwksRequests,
    async sign(claims = {}, options = {}) {
      const now = Math.floor(Date.now() / 1000);
      return new SignJWT({
        sub: "alice",
        aud: audience,
        iss: issuer,
        iat: now,
        exp: now + 3600,
        jti: randomUUID(),
        ...claims,
      })
        .setProtectedHeader({ alg: options.alg ?? "RS256", kid: options.kid ?? "k1" })
        .sign(options.key ?? privateKey);
    },
    async [Symbol.asyncDispose]() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
