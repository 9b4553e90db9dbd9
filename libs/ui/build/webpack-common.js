/**
 * Webpack settings every browser workspace shares: swc for TypeScript, swc minification, the
 * shared singletons of Module Federation and a stats file the bundle budget reads.
 */
const path = require('node:path');
const fs = require('node:fs');
const MinimizerPlugin = require('minimizer-webpack-plugin');

const repoRoot = path.resolve(__dirname, '../../..');

/**
 * What must be one instance at run time: React, the forms library, the query client, and @studio/ui
 * (its contexts: session, drawer and modal hosts, the antd components and the router hooks it
 * re-exports). The router is reached through @studio/ui, not shared itself: a shared module keeps
 * every export, and react-router whole would add ~80 KB gzip before sign-in.
 */
const SINGLETONS = ['react', 'react-dom', 'react-hook-form', '@tanstack/react-query', '@studio/ui'];
/**
 * The libraries under the contracts' rules. The rules themselves (@studio/contracts) are bundled
 * into each remote, so a remote ships its own; zod and date-fns are taken from the shell for size
 * (a copy in every remote cost ~45 KB gzip each; see the bundle budget) with a range like the others.
 * One zod also means one jitless setting (zod-csp.ts). 'date-fns/' shares its deep imports.
 */
const RULE_LIBRARIES = ['date-fns/', '@date-fns/tz'];

/** The version a package has where `dir` resolves it (its package.json), so the share scope says the truth. */
function installedVersion(name, dir) {
  const file = require.resolve(`${name}/package.json`, { paths: [dir] });
  return JSON.parse(fs.readFileSync(file, 'utf8')).version;
}

/** The range a workspace declares for a package in its package.json (dependencies of any kind). */
function declaredRange(name, dir) {
  const pkg = JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8'));
  // A workspace that uses a package only through a lib (the query client through @studio/ui, zod
  // through @studio/contracts) takes that lib's range.
  const libs = ['libs/ui', 'libs/contracts'].map((lib) =>
    JSON.parse(fs.readFileSync(path.join(repoRoot, lib, 'package.json'), 'utf8')),
  );
  for (const declared of [pkg, ...libs]) {
    const range = declared.dependencies?.[name] ?? declared.peerDependencies?.[name];
    if (range) return range;
  }
  throw new Error(`${dir}: no package.json declares a range for the shared ${name}`);
}

/**
 * The shared singletons (issue 20): the shell provides each at the version installed (react, the
 * query client, @studio/ui with its contexts, session and antd); a remote brings no copy of its own
 * (import: false) and declares the range its package.json asks for. strictVersion: a remote built
 * for a newer shared library than the shell offers fails to load (its drawer shows why) instead of
 * running on the old one.
 */
function sharedModules(role, dir) {
  const host = role === 'host';
  return Object.fromEntries(
    [...SINGLETONS, ...RULE_LIBRARIES].map((key) => [
      key,
      {
        singleton: true,
        strictVersion: true,
        version: installedVersion(key.replace(/\/$/, ''), dir),
        requiredVersion: declaredRange(key.replace(/\/$/, ''), dir),
        ...(host ? { eager: false } : { import: false }),
      },
    ]),
  );
}

/**
 * Writes the chunk-group graph so scripts/bundle-budget.mjs can tell what a page loads: each group
 * with its files and its child groups, marked by what created them (an import(), a shared-module
 * consume, or a shared-module provide, which is only loaded when someone consumes it).
 */
class ChunkGraphPlugin {
  apply(compiler) {
    compiler.hooks.done.tap('ChunkGraphPlugin', (stats) => {
      if (stats.hasErrors()) return;
      const groups = [...stats.compilation.chunkGroups];
      const index = new Map(groups.map((group, i) => [group, i]));
      const graph = groups.map((group) => ({
        id: index.get(group),
        name: group.name ?? null,
        entry: typeof group.isInitial === 'function' && group.isInitial(),
        files: [...new Set(group.chunks.flatMap((chunk) => [...chunk.files]))].filter((f) =>
          f.endsWith('.js'),
        ),
        children: [...group.getChildren()].map((child) => ({
          id: index.get(child),
          via: [...new Set(child.origins.map((origin) => origin.module?.type ?? 'unknown'))],
        })),
      }));
      fs.mkdirSync(compiler.options.output.path, { recursive: true });
      if (process.env.CHUNK_MODULES) {
        // Debug aid: which modules ended up in which chunk file.
        const byFile = {};
        for (const chunk of stats.compilation.chunks) {
          const modules = stats.compilation.chunkGraph.getChunkModules(chunk);
          byFile[[...chunk.files].join(',')] = modules
            .map((m) => `${m.size()} ${m.readableIdentifier(stats.compilation.requestShortener)}`)
            .sort((a, b) => parseInt(b) - parseInt(a));
        }
        fs.writeFileSync(
          path.join(compiler.options.output.path, 'chunk-modules.json'),
          JSON.stringify(byFile, null, 1),
        );
      }
      fs.writeFileSync(
        path.join(compiler.options.output.path, 'chunk-graph.json'),
        JSON.stringify(graph, null, 1),
      );
    });
  }
}

function commonConfig({ dir, mode }) {
  const production = mode !== 'development';
  return {
    mode: production ? 'production' : 'development',
    context: dir,
    devtool: production ? false : 'eval-cheap-module-source-map',
    resolve: {
      extensions: ['.tsx', '.ts', '.mjs', '.js', '.json'],
      alias: {
        // The contracts' TypeScript sources are ES modules: they tree-shake, dist (CommonJS) does not.
        '@studio/contracts$': path.join(repoRoot, 'libs/contracts/src/index.ts'),
        '@studio/ui$': path.join(repoRoot, 'libs/ui/src/index.ts'),
      },
    },
    module: {
      rules: [
        {
          // antd's own ES modules are side-effect free but most of its @rc-component and
          // @ant-design dependencies do not say so in package.json: without this, importing one
          // export of a package index (antd's Input reads a context of @rc-component/form) keeps
          // every module that index re-exports.
          test: /[\\/]node_modules[\\/](@rc-component|@ant-design[\\/](cssinjs|cssinjs-utils|fast-color|colors))[\\/]/,
          sideEffects: false,
        },
        {
          test: /\.[cm]?[jt]sx?$/,
          exclude: /node_modules/,
          use: {
            loader: 'swc-loader',
            options: {
              jsc: {
                parser: { syntax: 'typescript', tsx: true },
                transform: { react: { runtime: 'automatic' } },
                target: 'es2020',
              },
            },
          },
        },
      ],
    },
    optimization: {
      minimizer: [
        new MinimizerPlugin({
          minify: {
            implementation: MinimizerPlugin.swcMinify,
            options: { compress: { passes: 2 }, mangle: true },
          },
        }),
      ],
    },
    performance: { hints: false },
    plugins: [new ChunkGraphPlugin()],
  };
}

module.exports = { commonConfig, sharedModules, repoRoot };
