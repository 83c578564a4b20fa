/** @type {import('jest').Config} */
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/__tests__'],
  testMatch: ['**/*.test.ts'],
  transform: {
    '^.+\\.ts$': ['ts-jest', {
      tsconfig: 'tsconfig.test.json',
      // 151002: ts-jest's hybrid-module notice; isolatedModules would silence it but turns type checking off.
      diagnostics: { ignoreCodes: [151002] },
    }],
  },
  testTimeout: 30000,
};
