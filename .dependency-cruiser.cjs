// The import boundaries of docs/decisions/0070-import-boundaries.md, checked by
// `npm run check:boundaries` (part of `npm run check`).
//
// The rules judge product files: a test beside its code (*.test.ts) may start a server or a
// mock as its target and use Node, and test/ is the harness. Type-only imports count too
// (tsPreCompilationDeps), because a type import still ties one part to another.
// The allow-lists of the faces (reference-server/, mocks/, conformance/, proxy/) also keep each
// face from importing another: none of them lists a sibling face.

/** Files that are not product: harnesses in test/ and unit tests beside their code. */
const TESTS = '^test/|\\.test(-d)?\\.ts$';

/** Faces and what only a face uses: the core and the contract must not know them. */
const FACES = '^(reference-server|mocks|conformance|proxy|node-runtime|bin)/';

module.exports = {
  forbidden: [
    {
      name: 'core-no-express',
      comment:
        'core/ is transport-agnostic (the mocks run it in browsers): Express is one face, ' +
        'reference-server/http adapts to it.',
      severity: 'error',
      from: { path: '^core/', pathNot: TESTS },
      to: { path: '^node_modules/(@types/)?express/' },
    },
    {
      name: 'core-no-node-builtins',
      comment:
        'core/ runs in browsers and jsdom too: a node:* import (even of a type) ties it to Node; ' +
        'a Node implementation of a port belongs in node-runtime/.',
      severity: 'error',
      from: { path: '^core/', pathNot: TESTS },
      to: { dependencyTypes: ['core'] },
    },
    {
      name: 'core-knows-no-face',
      comment:
        'One core, several faces: the faces adapt the core, never the other way round ' +
        '(so a face can change without the core or the other faces noticing).',
      severity: 'error',
      from: { path: '^core/', pathNot: TESTS },
      to: { path: FACES },
    },
    {
      name: 'spec-is-the-root',
      comment:
        'spec/ is the single source of truth both faces and the runner read: ' +
        'it depends on nothing of the core or of a face.',
      severity: 'error',
      from: { path: '^spec/', pathNot: TESTS },
      to: { path: ['^core/', FACES] },
    },
    {
      name: 'conformance-is-a-black-box',
      comment:
        'The runner judges any implementation by what comes over the wire: ' +
        'it reads the contract (spec/) and nothing of the core or a face.',
      severity: 'error',
      from: { path: '^conformance/', pathNot: TESTS },
      to: { pathNot: '^(conformance|spec|node_modules)/', dependencyTypesNot: ['core'] },
    },
    {
      name: 'mocks-reuse-only-the-core',
      comment:
        'The mocks are a face over the same core as the server (so they cannot drift), ' +
        'not over the Express face; they run in browsers, so no node:*, no node-runtime/ ' +
        'and none of their own Node servers.',
      severity: 'error',
      from: { path: '^mocks/', pathNot: [TESTS, '^mocks/(server|prism)/'] },
      to: { pathNot: '^(mocks/(?!server/|prism/)|core/|spec/|node_modules/)' },
    },
    {
      name: 'mock-servers-add-node-runtime',
      comment:
        'mocks/server and mocks/prism are the Node servers of `apikit mock`: ' +
        'like the mocks, plus what the Node faces share (node-runtime/).',
      severity: 'error',
      from: { path: '^mocks/(server|prism)/', pathNot: TESTS },
      to: {
        pathNot: '^(mocks|core|spec|node-runtime|node_modules)/',
        dependencyTypesNot: ['core'],
      },
    },
    {
      name: 'node-runtime-is-shared-below-the-faces',
      comment:
        'node-runtime/ is what two Node faces share: if it imported a face, ' +
        'the other face would depend on that one through it.',
      severity: 'error',
      from: { path: '^node-runtime/', pathNot: TESTS },
      to: { pathNot: '^(node-runtime|core|spec|node_modules)/', dependencyTypesNot: ['core'] },
    },
    {
      name: 'reference-server-is-one-face',
      comment:
        'The Express face adapts the core (with the Node runtime): ' +
        'it imports no other face, so the mocks and the runner stay independent of it.',
      severity: 'error',
      from: { path: '^reference-server/', pathNot: TESTS },
      to: {
        pathNot: '^(reference-server|core|spec|node-runtime|node_modules)/',
        dependencyTypesNot: ['core'],
      },
    },
    {
      name: 'proxy-is-one-face',
      comment:
        "`apikit proxy` fronts a backend with Prism: a Node face over the contract, the core's " +
        'URL layout and the Node runtime, independent of the mocks and the server.',
      severity: 'error',
      from: { path: '^proxy/', pathNot: TESTS },
      to: {
        pathNot: '^(proxy|core|spec|node-runtime|node_modules)/',
        dependencyTypesNot: ['core'],
      },
    },
    {
      name: 'no-product-imports-test',
      comment:
        'Harnesses never ship (decision 0060): a product file that imported test/ ' +
        'would put a harness into dist/ or break the build that leaves test/ out.',
      severity: 'error',
      from: { pathNot: TESTS },
      to: { path: '^test/' },
    },
    {
      name: 'imports-resolve',
      comment:
        'An import the cruiser cannot resolve cannot be judged: ' +
        'fail rather than pass a boundary unseen.',
      severity: 'error',
      from: {},
      to: { couldNotResolve: true },
    },
  ],
  options: {
    // dist/ and reports/ are output, not source; test/consumers/*/ are fixture apps with their
    // own dependencies (apikit from the tarball). node_modules is not excluded, only not
    // followed: the rules must see imports of packages.
    exclude: { path: ['^(dist|reports)/', '^test/consumers/[^/]+/'] },
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      mainFields: ['module', 'main', 'types', 'typings'],
    },
  },
};
