// The start-up measurement of test/consumers/jest-consumer.test.ts: the app's Jest settings,
// one fresh test file, and no setup file (which would load the mocks before it).
const config = require('./jest.config.js');

module.exports = {
  ...config,
  setupFilesAfterEnv: [],
  testMatch: ['<rootDir>/src/startup.timing.js'],
};
