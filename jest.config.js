// Test levels live in the file name: *.unit.spec.ts (pure, no I/O), *.int.spec.ts (real engines),
// *.e2e.spec.ts (the gateway over HTTP/WebSocket on the real stack). Integration suites create their
// own uniquely named databases and topics, so the two workers never share state.
const swc = [
  '@swc/jest',
  {
    jsc: {
      parser: { syntax: 'typescript', decorators: true },
      transform: { legacyDecorator: true, decoratorMetadata: true },
      target: 'es2022',
    },
    module: { type: 'commonjs' },
  },
];
const common = {
  transform: { '^.+\\.ts$': swc },
  testEnvironment: 'node',
  setupFiles: ['reflect-metadata'],
};
module.exports = {
  maxWorkers: 2,
  testTimeout: 60000,
  projects: [
    { ...common, displayName: 'unit', testMatch: ['<rootDir>/{src,test}/**/*.unit.spec.ts'] },
    {
      ...common,
      displayName: 'int',
      testMatch: ['<rootDir>/{src,test}/**/*.int.spec.ts', '<rootDir>/{src,test}/**/*.e2e.spec.ts'],
      slowTestThreshold: 30,
      // TEST_LOG_DIR (npm test sets it): every suite's log lines into that folder, searched for leaks
      // after the run (test/support/logCheck.ts); the run fails naming file and line.
      setupFilesAfterEnv: ['<rootDir>/test/support/logCapture.setup.ts'],
      globalSetup: '<rootDir>/test/support/logCheck.globalSetup.ts',
      globalTeardown: '<rootDir>/test/support/logCheck.globalTeardown.ts',
    },
  ],
};
