module.exports = {
  // MSW's environment for Jest: jsdom with Node's fetch, Request, Response, streams and
  // TextEncoder, and Node's module resolution (customExportConditions: ['']).
  testEnvironment: 'jest-fixed-jsdom',
  setupFilesAfterEnv: ['<rootDir>/src/test/setup.js'],
  // msw 2's dependencies that are ES modules only, compiled to CommonJS by Babel: Jest cannot
  // load them as they are (Jest 30 can on Node 24.9+ under --experimental-vm-modules).
  transform: { '\\.[cm]?js$': 'babel-jest' },
  transformIgnorePatterns: [
    '/node_modules/(?!(until-async|rettime|@open-draft/deferred-promise)/)',
  ],
};
