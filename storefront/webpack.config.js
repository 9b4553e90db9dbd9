/**
 * Four builds: the client (dist/client: hashed files the API serves under /s-assets/, and
 * manifest.json naming what a page loads), the server render (dist/server.js, CommonJS with Preact
 * inside, required by the API process), and the checkout overlay (dist/overlay/checkout-overlay.js:
 * one file without dependencies that studios paste into their own sites; the API serves it at
 * /checkout-overlay.js, a stable address, so its name has no hash), and the standalone server (dist/standalone.js: the store on its own,
a Node server with the server render inside, reading the Storefront API over HTTP). React's names resolve to
 * preact/compat, so the pages are written as React components.
 */
const path = require('node:path');
const fs = require('node:fs');
const MinimizerPlugin = require('minimizer-webpack-plugin');
const webpack = require('webpack');

const contracts = path.join(__dirname, '..', 'libs', 'contracts', 'src');

const alias = {
  react$: 'preact/compat',
  'react-dom$': 'preact/compat',
  'react-dom/client$': 'preact/compat/client',
  // The contracts' TypeScript sources are ES modules: they tree-shake, dist (CommonJS) does not.
  '@studio/contracts$': path.join(contracts, 'index.ts'),
  '@studio/contracts/src': contracts,
};

const swc = (target) => ({
  test: /\.[cm]?[jt]sx?$/,
  exclude: /node_modules/,
  use: {
    loader: 'swc-loader',
    options: {
      jsc: {
        parser: { syntax: 'typescript', tsx: true },
        transform: { react: { runtime: 'automatic', importSource: 'preact' } },
        target,
      },
    },
  },
});

/** Writes what a page loads (the entry's scripts, its stylesheets) to dist/client/manifest.json. */
class ClientManifestPlugin {
  apply(compiler) {
    compiler.hooks.done.tap('ClientManifestPlugin', (stats) => {
      if (stats.hasErrors()) return;
      const { compilation } = stats;
      const entry = compilation.entrypoints.get('client');
      const scripts = entry.getFiles().filter((file) => file.endsWith('.js'));
      const styles = Object.keys(compilation.assets).filter((file) => file.endsWith('.css'));
      fs.writeFileSync(
        path.join(compiler.options.output.path, 'manifest.json'),
        JSON.stringify({ scripts, styles }, null, 1),
      );
    });
  }
}

module.exports = (_env, argv) => {
  const production = argv.mode !== 'development';
  const minimizer = new MinimizerPlugin({
    minify: {
      implementation: MinimizerPlugin.swcMinify,
      options: { compress: { passes: 2 }, mangle: true },
    },
  });
  const common = {
    mode: production ? 'production' : 'development',
    context: __dirname,
    devtool: production ? false : 'source-map',
    resolve: { extensions: ['.tsx', '.ts', '.mjs', '.js', '.json'], alias },
    performance: { hints: false },
  };
  const client = {
    ...common,
    name: 'client',
    target: 'web',
    entry: { client: './src/client.tsx' },
    output: {
      path: path.join(__dirname, 'dist', 'client'),
      publicPath: '/s-assets/',
      filename: '[name].[contenthash:8].js',
      chunkFilename: '[name].[contenthash:8].js',
      assetModuleFilename: '[name].[contenthash:8][ext]',
      clean: true,
    },
    module: { rules: [swc('es2020'), { test: /\.css$/, type: 'asset/resource' }] },
    optimization: { minimizer: [minimizer] },
    plugins: [new ClientManifestPlugin()],
  };
  const server = {
    ...common,
    name: 'server',
    target: 'node20',
    entry: { server: './src/server.tsx' },
    output: {
      path: path.join(__dirname, 'dist'),
      filename: '[name].js',
      library: { type: 'commonjs2' },
      clean: { keep: /^(client\/|overlay\/|standalone\.js$)/ },
    },
    module: {
      rules: [swc('es2022'), { test: /\.css$/, type: 'asset/resource', generator: { emit: false } }],
    },
    // Readable stack traces in the API's logs; the file is not sent to browsers.
    optimization: { minimize: false },
  };
  const overlay = {
    ...common,
    name: 'overlay',
    target: ['web', 'es2019'],
    entry: { 'checkout-overlay': './src/overlay/checkout-overlay.entry.ts' },
    output: {
      path: path.join(__dirname, 'dist', 'overlay'),
      filename: '[name].js',
      iife: true,
      clean: true,
    },
    module: { rules: [swc('es2019')] },
    optimization: { minimizer: [minimizer] },
  };
  const standalone = {
    ...common,
    name: 'standalone',
    target: 'node20',
    entry: { standalone: './src/standalone.ts' },
    output: { path: path.join(__dirname, 'dist'), filename: '[name].js' },
    module: {
      rules: [swc('es2022'), { test: /\.css$/, type: 'asset/resource', generator: { emit: false } }],
    },
    // __dirname is dist/ at run time (the client files are in dist/client).
    node: { __dirname: false },
    // One file: the server build's chunks beside it have names of their own.
    plugins: [new webpack.optimize.LimitChunkCountPlugin({ maxChunks: 1 })],
    optimization: { minimize: false },
  };
  return [client, server, overlay, standalone];
};
