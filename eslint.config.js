import js from "@eslint/js";
import { defineConfig, globalIgnores } from "eslint/config";
import tseslint from "typescript-eslint";

// Files that belong to a workspace tsconfig (its "include" is src, test, bench and *.ts).
// Only these get the type-aware rules: a file outside every tsconfig would make the
// project service fail, so everything else is linted without type information.
const typedFiles = ["{packages,apps}/*/{src,test,bench,scripts}/**/*.ts", "{packages,apps}/*/*.ts"];

const namedExportsOnly = [
  {
    selector: "ExportDefaultDeclaration",
    message: "Use named exports only (export default is allowed in *.config.* files).",
  },
  {
    selector: "ExportSpecifier[exported.name='default']",
    message: "Use named exports only (export default is allowed in *.config.* files).",
  },
];

const storeOnly = "Only packages/store uses Prisma: call a store function (it takes a `Db`).";

export default defineConfig(
  globalIgnores([
    "**/node_modules/",
    "**/.data/",
    "**/.cache/",
    "**/dist/",
    "**/generated/",
    "**/.turbo/",
    "**/coverage/",
  ]),

  js.configs.recommended,
  tseslint.configs.recommended,

  {
    linterOptions: { reportUnusedDisableDirectives: "error" },
    languageOptions: { ecmaVersion: 2023, sourceType: "module" },
    rules: {
      "@typescript-eslint/consistent-type-imports": "error",
      "@typescript-eslint/no-unused-vars": [
        "error",
        {
          args: "after-used",
          argsIgnorePattern: "^_",
          varsIgnorePattern: "^_",
          caughtErrorsIgnorePattern: "^_",
          destructuredArrayIgnorePattern: "^_",
          ignoreRestSiblings: true,
        },
      ],
      "no-restricted-syntax": ["error", ...namedExportsOnly],
      "no-console": "warn",
    },
  },

  // Promise mistakes are the bugs types catch best; the rest of the typed presets stay off to keep lint fast.
  {
    files: typedFiles,
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      "@typescript-eslint/no-floating-promises": "error",
      "@typescript-eslint/no-misused-promises": "error",
      "@typescript-eslint/await-thenable": "error",
    },
  },

  // Tools read their config from a default export (graphql-codegen's is codegen.ts).
  {
    files: ["**/*.config.{ts,js,mjs,cjs,mts,cts}", "**/codegen.ts"],
    rules: { "no-restricted-syntax": "off" },
  },

  // Programs whose output is the console.
  {
    files: ["**/scripts/**", "**/bench/**", "**/cli/**"],
    rules: { "no-console": "off" },
  },

  // Only packages/store talks to Prisma (docs/architecture.md, "The store layer"): the rest calls
  // store functions, handing them `db.prisma`, and gets core's types back. The handle's type is
  // opaque (store/src/db.ts), so these rules only keep the imports and spellings out; tests may
  // open it through @stream-registry/store/testing, which src may not import.
  {
    files: ["{packages,apps}/*/src/**/*.ts"],
    ignores: ["packages/store/**"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            { group: ["@prisma/*", "**/generated/prisma/**"], message: storeOnly },
            { group: ["@stream-registry/store/testing"], message: "Tests only: " + storeOnly },
          ],
        },
      ],
      "no-restricted-syntax": [
        "error",
        ...namedExportsOnly,
        // `db.prisma.stream.findMany(...)`, `db.prisma.$queryRaw`; passing `db.prisma` along is fine.
        {
          selector: "MemberExpression[object.type='MemberExpression'][object.property.name='prisma']",
          message: storeOnly,
        },
        {
          selector:
            "MemberExpression[property.name=/^\\$(queryRaw|executeRaw|queryRawUnsafe|executeRawUnsafe|transaction)$/]",
          message: "Only packages/store writes SQL: add a store function.",
        },
      ],
    },
  },

  // Plain JavaScript runs on Node; TypeScript files get undefined names from tsc instead.
  {
    files: ["**/*.{js,mjs,cjs}"],
    languageOptions: {
      globals: {
        process: "readonly",
        console: "readonly",
        URL: "readonly",
        Buffer: "readonly",
        setTimeout: "readonly",
        clearTimeout: "readonly",
      },
    },
  },
);
