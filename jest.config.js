// Two projects: `unit` (pure cores, no build, seconds) and `e2e` (the views'
// pictures, components, integration and end-to-end suites; these run dist/,
// which the global setup rebuilds when it is older than src/).
const transform = {
  '^.+\\.ts$': [
    'ts-jest',
    {
      tsconfig: 'tsconfig.test.json',
      // 151002: ts-jest's hybrid-module notice; isolatedModules would silence it but turns type checking off.
      diagnostics: { ignoreCodes: [151002] },
    },
  ],
};

/** @type {import('jest').Config} */
module.exports = {
  testTimeout: 30000,
  projects: [
    {
      displayName: 'unit',
      testEnvironment: 'node',
      roots: ['<rootDir>/__tests__/unit'],
      testMatch: ['**/*.test.ts'],
      transform,
    },
    {
      displayName: 'e2e',
      testEnvironment: 'node',
      roots: [
        '<rootDir>/__tests__/views',
        '<rootDir>/__tests__/component',
        '<rootDir>/__tests__/integration',
        '<rootDir>/__tests__/e2e',
      ],
      testMatch: ['**/*.test.ts'],
      transform,
      globalSetup: '<rootDir>/__tests__/helpers/global-setup.js',
    },
  ],
};
