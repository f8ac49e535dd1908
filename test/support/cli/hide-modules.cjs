// Loaded into a child with `node --require` (NODE_OPTIONS): the packages named in
// APIKIT_TEST_HIDDEN_MODULES (comma-separated) resolve as if they were not installed, so a test
// sees what a project without an optional peer sees (`require.resolve`, which apikit uses to
// find Prism, goes through Module._resolveFilename).
'use strict';
const Module = require('node:module');

const hidden = (process.env.APIKIT_TEST_HIDDEN_MODULES || '').split(',').filter(Boolean);
const resolveFilename = Module._resolveFilename;
Module._resolveFilename = function (request, ...rest) {
  if (hidden.some((name) => request === name || request.startsWith(`${name}/`))) {
    const error = new Error(`Cannot find module '${request}'`);
    error.code = 'MODULE_NOT_FOUND';
    throw error;
  }
  return resolveFilename.call(this, request, ...rest);
};
