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
    '@studio/ui': shared('0.1.0'),
    '@studio/contracts': shared('0.1.0'),
  };
}

/** Writes the chunk graph so scripts/bundle-budget.mjs can tell what a page loads. */
class ChunkGraphPlugin {
  apply(compiler) {
    compiler.hooks.done.tap('ChunkGraphPlugin', (stats) => {
      const json = stats.toJson({
        all: false,
        assets: true,
        chunks: true,
        chunkRelations: true,
        chunkModules: false,
        entrypoints: true,
        ids: true,
      });
      const graph = {
        entrypoints: Object.fromEntries(
          Object.entries(json.entrypoints ?? {}).map(([name, entry]) => [name, entry.chunks]),
        ),
        chunks: (json.chunks ?? []).map((chunk) => ({
          id: chunk.id,
          names: chunk.names,
          files: chunk.files,
          children: chunk.children,
          initial: chunk.initial,
        })),
      };
      fs.writeFileSync(path.join(compiler.options.output.path, 'chunk-graph.json'), JSON.stringify(graph, null, 1));
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
      minimizer: [new MinimizerPlugin({ minify: { implementation: MinimizerPlugin.swcMinify, options: { compress: true, mangle: true } } })],
    },
    performance: { hints: false },
    plugins: [new ChunkGraphPlugin()],
  };
}

module.exports = { commonConfig, sharedModules, repoRoot };
