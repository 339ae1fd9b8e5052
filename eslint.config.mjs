import nx from '@nx/eslint-plugin';
import tseslint from 'typescript-eslint';

const allLibraryTypes = ['type:domain', 'type:data-access', 'type:util', 'type:contract', 'type:testing'];

// What each kind of project may import, by tags: apps are composition roots; domain code never
// reaches into apps; scopes only share through scope:shared libs.
const typeConstraints = [
  { sourceTag: 'type:app', onlyDependOnLibsWithTags: ['type:domain', 'type:data-access', 'type:util', 'type:contract'] },
  { sourceTag: 'type:tool', onlyDependOnLibsWithTags: allLibraryTypes },
  // End-to-end specs also drive a domain library against the running stack (the Files API on the
  // stack's database, a signed file URL served by another gateway replica).
  { sourceTag: 'type:e2e', onlyDependOnLibsWithTags: ['type:testing', 'type:domain', 'type:data-access', 'type:util', 'type:contract'] },
  { sourceTag: 'type:testing', onlyDependOnLibsWithTags: allLibraryTypes },
  { sourceTag: 'type:domain', onlyDependOnLibsWithTags: ['type:domain', 'type:data-access', 'type:util', 'type:contract'] },
  { sourceTag: 'type:data-access', onlyDependOnLibsWithTags: ['type:data-access', 'type:util', 'type:contract'] },
  { sourceTag: 'type:util', onlyDependOnLibsWithTags: ['type:util', 'type:contract'] },
  { sourceTag: 'type:contract', onlyDependOnLibsWithTags: ['type:util', 'type:contract'] },
];
const scopeConstraints = [
  { sourceTag: 'scope:shared', onlyDependOnLibsWithTags: ['scope:shared'] },
  { sourceTag: 'scope:conversations', onlyDependOnLibsWithTags: ['scope:conversations', 'scope:shared'] },
  { sourceTag: 'scope:gateway', onlyDependOnLibsWithTags: ['scope:gateway', 'scope:shared'] },
  { sourceTag: 'scope:scheduler', onlyDependOnLibsWithTags: ['scope:scheduler', 'scope:shared'] },
  { sourceTag: 'scope:actions-runner', onlyDependOnLibsWithTags: ['scope:actions-runner', 'scope:shared'] },
  // The benchmarks call the conversations use cases directly, as the baseline of the full path.
  { sourceTag: 'scope:tools', onlyDependOnLibsWithTags: ['scope:tools', 'scope:shared', 'scope:conversations'] },
];
const moduleBoundaries = (constraints) => ['error', { enforceBuildableLibDependency: false, allow: [], depConstraints: [...constraints, ...scopeConstraints] }];
const TEST_FILES = ['**/*.spec.ts', '**/*.int-spec.ts', '**/*.fault-spec.ts'];

// The data layer's boundary (docs/data-layer.md): models and the MongoDB driver stay in libs/dal;
// everything else reads and writes through its repositories, tests too (through a repository, or a
// helper of libs/testing when a test must look under the API).
const modelImports = { group: ['@cmsg/dal'], importNamePattern: '^\\w+Model$', message: "Models stay inside libs/dal: use the collection's repository." };
const deepDalImports = { group: ['@cmsg/dal/*', '**/libs/dal/**', '**/dal/src/**'], message: 'Import the data layer through @cmsg/dal (its repositories), never its files.' };
const driverImports = {
  group: ['mongoose', 'mongoose/*', 'mongodb', 'mongodb/*'],
  message:
    'MongoDB is reached through libs/dal only: call a repository or store of @cmsg/dal (add the query there, with the index that serves it); a test that must look under the API uses a helper of the testing libraries (@cmsg/testing, @cmsg/testing-database).',
};
const repositoryConstruction =
  "A library receives its repositories as ports (Pick<XRepository, 'method'>) from its caller: build them in a composition root (an app's main.ts, tools/admin, libs/testing) or in libs/dal.";

export default [
  { ignores: ['**/node_modules/**', '**/dist/**', 'tmp/**', '.nx/**', 'libs/proto/src/generated/**', 'libs/client/src/generated/**', '**/*.js', '**/*.mjs'] },
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts'],
    plugins: { '@nx': nx },
    rules: {
      '@nx/enforce-module-boundaries': moduleBoundaries(typeConstraints),
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    files: ['**/*.ts'],
    ignores: ['libs/dal/**'],
    rules: { 'no-restricted-imports': ['error', { patterns: [modelImports, deepDalImports] }] },
  },
  {
    // The bare handlers of the benchmarks measure the driver alone, on purpose (docs/benchmarks.md).
    files: ['**/*.ts'],
    ignores: ['libs/dal/**', 'libs/testing/**', 'libs/testing-database/**', 'tools/bench/src/*'],
    rules: { 'no-restricted-imports': ['error', { patterns: [modelImports, deepDalImports, driverImports] }] },
  },
  {
    // Libraries receive their repositories as ports; the composition roots build them (docs/architecture.md).
    files: ['libs/**/*.ts'],
    ignores: ['libs/dal/**', 'libs/testing/**', 'libs/testing-database/**', ...TEST_FILES],
    rules: { 'no-restricted-syntax': ['error', { selector: 'NewExpression[callee.name=/Repository$/]', message: repositoryConstruction }] },
  },
  {
    // Tests of every project may use the testing libraries; production code may not.
    files: TEST_FILES,
    rules: {
      '@nx/enforce-module-boundaries': moduleBoundaries(
        typeConstraints.map((constraint) => ({ ...constraint, onlyDependOnLibsWithTags: [...new Set([...constraint.onlyDependOnLibsWithTags, 'type:testing'])] })),
      ),
    },
  },
  {
    files: TEST_FILES,
    rules: { '@typescript-eslint/no-non-null-assertion': 'off' },
  },
];
