/**
 * Webpack settings every browser workspace shares: swc for TypeScript, swc minification, the
 * shared singletons of Module Federation and a stats file the bundle budget reads.
 */
const path = require('node:path');
const fs = require('node:fs');
const MinimizerPlugin = require('minimizer-webpack-plugin');

const repoRoot = path.resolve(__dirname, '../../..');

/** Loaded once, served by the shell. Remotes bring no copy of their own (import: false). */
function sharedModules(role) {
  const host = role === 'host';
  const shared = (version) => ({
    singleton: true,
    requiredVersion: version,
    ...(host ? { eager: false } : { import: false }),
  });
  return {
    react: shared('^19.2.0'),
    'react-dom': shared('^19.2.0'),
    'react-hook-form': shared('^7.62.0'),
    // The data layer: one QueryClient cache for the shell and every remote's drawer.
    '@tanstack/react-query': shared('^5.108.0'),
    '@studio/ui': shared('0.1.0'),
    '@studio/contracts': shared('0.1.0'),
  };
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
